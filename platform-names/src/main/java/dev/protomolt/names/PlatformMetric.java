package dev.protomolt.names;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * Every CloudWatch metric the platform emits, in namespace {@value #NAMESPACE} with dimension
 * {@value #ENVIRONMENT_DIMENSION}, and the process that emits it. The stack's scaling policy and
 * alarms name metrics only through this enum, so they cannot read one the code does not write.
 */
public enum PlatformMetric {
  /** Records waiting in the gateway's module topics for its consumer group (gateway, each minute). */
  MODULE_TOPIC_BACKLOG("ModuleTopicBacklog", "gateway"),
  /**
   * Records of a module service waiting on this gateway task: past the task's fetch position on
   * the partitions it holds, plus those it buffered; by {@link #MODULE_SERVICE_DIMENSION} (gateway,
   * each minute; decision 1653).
   */
  MODULE_QUEUED_RECORDS("ModuleQueuedRecords", "gateway"),
  /** Age of the oldest record a module service's buffer holds on this task, by module service. */
  MODULE_OLDEST_QUEUED_AGE("ModuleOldestQueuedAge", "gateway", "Seconds"),
  /** Work streams of a module service open on this task (waiting or serving), by module service. */
  MODULE_STREAMS_OPEN("ModuleStreamsOpen", "gateway"),
  /** Work units a module service holds on this task (served, not acked), by module service. */
  MODULE_UNITS_IN_FLIGHT("ModuleUnitsInFlight", "gateway"),
  /**
   * Mean time from a unit served to its ack settled over the last minute, by module service; not
   * emitted for a minute with no ack.
   */
  MODULE_ACK_LATENCY("ModuleAckLatency", "gateway", "Milliseconds"),
  /**
   * Records one gateway task holds, queued or in flight, over all its module services: one value
   * per task each minute, so Sum over SampleCount is the backlog per running task the service
   * scales on (decision 1654).
   */
  GATEWAY_TASK_BACKLOG("GatewayTaskBacklog", "gateway"),
  /**
   * One for every work unit the dispatch function produced to a module topic: the signal that
   * wakes a gateway service scaled to zero, where no task is left to measure a backlog (decision
   * 1654).
   */
  MODULE_DISPATCHES("ModuleDispatches", "dispatch"),
  /** One for every dead letter the DLQ function published. */
  DEAD_LETTERS_PUBLISHED("DeadLettersPublished", "dlq"),
  /** Stored parts one purge batch could not delete. */
  PURGE_FAILURES("PurgeFailures", "purge"),
  /**
   * Bytes of the state a hop function hands back to Step Functions, against the service's {@value
   * #STATE_PAYLOAD_LIMIT_BYTES}-byte limit; by {@link #GRAPH_DIMENSION} and {@link #NODE_DIMENSION}.
   */
  HOP_PAYLOAD_BYTES("HopPayloadBytes", "prepare, complete", "Bytes"),
  /**
   * The execution history events a document's execution has used by the end of a hop (an upper
   * estimate from its hop count), against Step Functions' {@value #HISTORY_EVENT_LIMIT}.
   */
  HOP_HISTORY_EVENTS("HopHistoryEvents", "complete", "Count"),
  /** From the hop's dispatch to its completion (queue, module and ack), by graph and node. */
  HOP_LATENCY("HopLatency", "complete", "Milliseconds");

  public static final String NAMESPACE = "ProtoMolt";

  /** The dimension every metric carries: the environment's name ({@code PROTOMOLT_ENV}). */
  public static final String ENVIRONMENT_DIMENSION = "Environment";

  /** The backlog's second dimension set names the module service the backlog is for. */
  public static final String MODULE_SERVICE_DIMENSION = "ModuleService";

  /** The hop metrics' dimensions beside the environment: the graph and the node of the hop. */
  public static final String GRAPH_DIMENSION = "Graph";

  public static final String NODE_DIMENSION = "Node";

  /** Step Functions' limit on the state passed between states (256 KB). */
  public static final int STATE_PAYLOAD_LIMIT_BYTES = 262_144;

  /** Step Functions' limit on the events in one Standard execution's history. */
  public static final int HISTORY_EVENT_LIMIT = 25_000;

  private final String metricName;
  private final String emitter;
  private final String unit;

  PlatformMetric(String metricName, String emitter) {
    this(metricName, emitter, "Count");
  }

  PlatformMetric(String metricName, String emitter, String unit) {
    this.metricName = metricName;
    this.emitter = emitter;
    this.unit = unit;
  }

  /** The CloudWatch unit the value is written with. */
  public String unit() {
    return unit;
  }

  /** Whether some metric is emitted with dimension {@code name} (the environment included). */
  public static boolean isDimension(String name) {
    return Set.of(ENVIRONMENT_DIMENSION, MODULE_SERVICE_DIMENSION, GRAPH_DIMENSION, NODE_DIMENSION)
        .contains(name);
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
