package dev.protomolt.engine.hop;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.PipeStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;

/**
 * What the hop functions tell CloudWatch about each hop, in embedded metric format: the size of the
 * state they hand back against Step Functions' 256 KB limit, the history events the execution has
 * used against its 25,000, and the hop's latency, each by graph and node so the heavy node shows.
 */
public final class HopMetrics {

  /**
   * History events one hop of a compiled graph costs at most: Prepare's task (5: entered,
   * scheduled, started, succeeded, exited), its action choice (2), the Work callback task (5, plus
   * heartbeats the gateway throttles), Complete's task (5) and the routing choice (2).
   */
  static final int EVENTS_PER_HOP = 19;

  /** The execution's start and the admission states before the first hop. */
  static final int EVENTS_BEFORE_FIRST_HOP = 4;

  private final MetricsSink sink;
  private final InstantSource clock;

  public HopMetrics(MetricsSink sink, InstantSource clock) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Hops that report nothing: wiring (the local platform, unit tests) that installs no sink. */
  public static HopMetrics none() {
    return new HopMetrics((metric, value, dimensions) -> {}, InstantSource.system());
  }

  /** The state a hop function answers with. */
  void answered(HopIdentity id, String answerJson) {
    sink.emit(
        PlatformMetric.HOP_PAYLOAD_BYTES,
        answerJson.getBytes(StandardCharsets.UTF_8).length,
        dimensions(id));
  }

  /** A hop settled by Complete: its history estimate and, once dispatched, its latency. */
  void settled(HopIdentity id, PipeStream input) {
    Map<String, String> dimensions = dimensions(id);
    int hops = input.getMetadata().getHopCount() + 1;
    sink.emit(
        PlatformMetric.HOP_HISTORY_EVENTS,
        EVENTS_BEFORE_FIRST_HOP + (long) hops * EVENTS_PER_HOP,
        dimensions);
    if (input.getMetadata().hasDispatchedAt()) {
      Timestamp at = input.getMetadata().getDispatchedAt();
      Duration latency =
          Duration.between(Instant.ofEpochSecond(at.getSeconds(), at.getNanos()), clock.instant());
      // A clock that stepped back would give a negative latency; none is better than a false one.
      if (!latency.isNegative()) {
        sink.emit(PlatformMetric.HOP_LATENCY, latency.toMillis(), dimensions);
      }
    }
  }

  private static Map<String, String> dimensions(HopIdentity id) {
    return Map.of(
        PlatformMetric.GRAPH_DIMENSION, id.graphId(), PlatformMetric.NODE_DIMENSION, id.nodeId());
  }
}
