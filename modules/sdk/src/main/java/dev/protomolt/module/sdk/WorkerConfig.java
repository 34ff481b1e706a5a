package dev.protomolt.module.sdk;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * How one worker process pulls work.
 *
 * @param moduleId the module service, e.g. "parser"; selects the gateway's topic
 * @param instanceId unique per process; the gateway logs it
 * @param maxConcurrency most streams (and so work units) in flight at once
 * @param defaultHeartbeat heartbeat period when a work unit does not say
 * @param noWorkPause pause after NoWorkAvailable when the gateway gives no retry_after_ms
 * @param reconnect back-off after a stream error
 * @param shutdownGrace how long {@link ModuleWorker#close()} lets busy processors finish
 */
public record WorkerConfig(
    String moduleId,
    String instanceId,
    int maxConcurrency,
    Duration defaultHeartbeat,
    Duration noWorkPause,
    ReconnectBackoff reconnect,
    Duration shutdownGrace) {

  public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

  public WorkerConfig {
    Objects.requireNonNull(moduleId, "moduleId");
    if (moduleId.isBlank() || !moduleId.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "moduleId must be non-blank letters, digits, '.', '_' or '-' (it names a topic), got \""
              + moduleId
              + "\"");
    }
    if (instanceId == null || instanceId.isBlank()) {
      throw new IllegalArgumentException("instanceId must not be blank");
    }
    if (maxConcurrency < 1) {
      throw new IllegalArgumentException("maxConcurrency must be >= 1, got " + maxConcurrency);
    }
    requirePositive(defaultHeartbeat, "defaultHeartbeat");
    requirePositive(noWorkPause, "noWorkPause");
    Objects.requireNonNull(reconnect, "reconnect");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdownGrace must be >= 0, got " + shutdownGrace);
    }
  }

  /** Defaults: heartbeat 15 s, pause 1 s on NoWorkAvailable, reconnect 500 ms to 30 s, grace 30 s. */
  public static WorkerConfig of(String moduleId, int maxConcurrency) {
    return new WorkerConfig(
        moduleId,
        // Readable in gateway logs (which process) and unique across restarts (the random part).
        moduleId
            + "-"
            + ProcessHandle.current().pid()
            + "-"
            + UUID.randomUUID().toString().substring(0, 8),
        maxConcurrency,
        DEFAULT_HEARTBEAT,
        Duration.ofSeconds(1),
        new ReconnectBackoff(Duration.ofMillis(500), Duration.ofSeconds(30)),
        Duration.ofSeconds(30));
  }

  public WorkerConfig withInstanceId(String id) {
    return new WorkerConfig(
        moduleId, id, maxConcurrency, defaultHeartbeat, noWorkPause, reconnect, shutdownGrace);
  }

  private static void requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be > 0, got " + value);
    }
  }
}
