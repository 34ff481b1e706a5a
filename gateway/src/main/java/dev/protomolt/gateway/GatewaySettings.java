package dev.protomolt.gateway;

import java.time.Duration;
import java.util.Objects;

/**
 * The protocol's timing (decision 0852).
 *
 * @param noWorkWait how long a Hello waits for a record before NoWorkAvailable (about 5 s)
 * @param noWorkRetryAfter the retry hint sent with NoWorkAvailable
 * @param defaultHeartbeat the module's heartbeat interval when a dispatch names no
 *     heartbeat_seconds; the watchdog allows twice this
 */
public record GatewaySettings(
    Duration noWorkWait, Duration noWorkRetryAfter, Duration defaultHeartbeat) {

  public GatewaySettings {
    positive(noWorkWait, "noWorkWait");
    Objects.requireNonNull(noWorkRetryAfter, "noWorkRetryAfter");
    if (noWorkRetryAfter.isNegative()) {
      throw new IllegalArgumentException("noWorkRetryAfter must be >= 0, got " + noWorkRetryAfter);
    }
    positive(defaultHeartbeat, "defaultHeartbeat");
  }

  public static GatewaySettings defaults() {
    return new GatewaySettings(
        Duration.ofSeconds(5), Duration.ofMillis(500), Duration.ofSeconds(15));
  }

  /**
   * The interval the module is told to heartbeat at: half the Work state's HeartbeatSeconds, so
   * relayed heartbeats reach Step Functions well inside its window.
   */
  Duration moduleHeartbeat(int heartbeatSeconds) {
    if (heartbeatSeconds <= 0) {
      return defaultHeartbeat;
    }
    return Duration.ofMillis(Math.max(1000L, heartbeatSeconds * 1000L / 2));
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be > 0, got " + d);
    }
  }
}
