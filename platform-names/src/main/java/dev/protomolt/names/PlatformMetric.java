package dev.protomolt.names;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every CloudWatch metric the platform emits, in namespace {@value #NAMESPACE} with dimension
 * {@value #ENVIRONMENT_DIMENSION}, and the process that emits it. The stack's scaling policy and
 * alarms name metrics only through this enum, so they cannot read one the code does not write.
 */
public enum PlatformMetric {
  /** Records waiting in the gateway's module topics for its consumer group (gateway, each minute). */
  MODULE_TOPIC_BACKLOG("ModuleTopicBacklog", "gateway"),
  /** One for every dead letter the DLQ function published. */
  DEAD_LETTERS_PUBLISHED("DeadLettersPublished", "dlq"),
  /** Stored parts one purge batch could not delete. */
  PURGE_FAILURES("PurgeFailures", "purge");

  public static final String NAMESPACE = "ProtoMolt";

  /** The dimension every metric carries: the environment's name ({@code PROTOMOLT_ENV}). */
  public static final String ENVIRONMENT_DIMENSION = "Environment";

  /** The backlog's second dimension set names the module service the backlog is for. */
  public static final String MODULE_SERVICE_DIMENSION = "ModuleService";

  private final String metricName;
  private final String emitter;

  PlatformMetric(String metricName, String emitter) {
    this.metricName = metricName;
    this.emitter = emitter;
  }

  public String metricName() {
    return metricName;
  }

  /** The function (by handler name) or {@code gateway} that emits it. */
  public String emitter() {
    return emitter;
  }

  public static Optional<PlatformMetric> byName(String metricName) {
    return Arrays.stream(values()).filter(m -> m.metricName.equals(metricName)).findFirst();
  }
}
