package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code N.Work} ({@code waitForTaskToken}): produces the {@code WorkDispatch} pointer on
 * {@code pipestream.module.<moduleId>}, keyed by the hop's work unit id so a re-dispatch after a
 * retryable module failure carries the same id with a new task token. The deadline is the Work
 * state's own timeout, the queue time to live plus one attempt (decision 1650). Its return value is
 * ignored: the gateway completes the token.
 */
public final class DispatchService {

  private final HopContext hop;
  private final MetricsSink metrics;

  /** Emits no metric: for a platform whose gateway service is never scaled to zero. */
  public DispatchService(HopContext hop) {
    this(hop, (metric, value, dimensions) -> {});
  }

  /**
   * @param metrics where each produced dispatch is counted ({@code ModuleDispatches}): the signal
   *     that wakes a gateway service scaled to zero (decision 1654)
   */
  public DispatchService(HopContext hop, MetricsSink metrics) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public String handle(String payloadJson) {
    JsonNode payload = HopJson.parse(payloadJson);
    HopIdentity id = HopIdentity.of(payload);
    String moduleId = HopJson.text(payload, "moduleId");
    String taskToken = HopJson.text(payload, "taskToken");
    String workUnitId = HopJson.text(payload, "workUnitId");
    PipeStream stream = HopJson.stream(payload, "stream");
    PinnedNode pinned = hop.pinned(id);
    if (!pinned.node().getModuleId().equals(moduleId)) {
      throw new BadPayloadFailure(
          "payload field 'moduleId' is '"
              + moduleId
              + "' but node '"
              + id.nodeId()
              + "' of graph '"
              + id.graphId()
              + "' version "
              + id.graphVersion()
              + " runs '"
              + pinned.node().getModuleId()
              + "'");
    }
    Instant now = hop.clock.instant();
    int timeoutSeconds = payload.path("timeoutSeconds").asInt(0);
    WorkDispatch.Builder dispatch =
        WorkDispatch.newBuilder()
            .setWorkUnitId(workUnitId)
            .setTaskToken(taskToken)
            .setStream(stream)
            .setModuleId(moduleId)
            .setNodeId(id.nodeId())
            .setGraphId(id.graphId())
            .setGraphVersion(id.graphVersion())
            .setClusterId(id.clusterId())
            .addAllRequiredParts(pinned.node().getCapabilities().getRequiredPartsList())
            .addAllRequiredChunkSets(pinned.node().getCapabilities().getRequiredChunkSetsList())
            .setNeedsBlobContent(pinned.node().getCapabilities().getNeedsBlobContent())
            .setDispatchedAt(timestamp(now))
            .setAttempt(payload.path("attempt").asInt(0))
            .setExecutionArn(id.executionId())
            .setHeartbeatSeconds(payload.path("heartbeatSeconds").asInt(0))
            .addAllIndexPlanIds(pinned.node().getIndexPlanIdsList());
    resultKeep(stream, id).ifPresent(dispatch::setResultKeep);
    if (timeoutSeconds > 0) {
      dispatch.setDeadline(timestamp(now.plusSeconds(timeoutSeconds)));
    }
    if (pinned.node().hasCustomConfig()) {
      dispatch.setCustomConfig(pinned.node().getCustomConfig());
    }
    try {
      hop.events.publish(
          EventBus.moduleTopic(moduleId), workUnitId, dispatch.build().toByteArray());
    } catch (RuntimeException e) {
      throw new TransientHopFailure(
          "producing the dispatch of work unit "
              + workUnitId
              + " on "
              + EventBus.moduleTopic(moduleId)
              + " failed: "
              + e.getMessage(),
          e);
    }
    metrics.emit(
        PlatformMetric.MODULE_DISPATCHES,
        1,
        Map.of(PlatformMetric.MODULE_SERVICE_DIMENSION, moduleId));
    return "{}";
  }

  /**
   * The staging of the hop's own address, where the gateway saves the module's result (decision
   * 0815): the flag of a reference to that very address, or the flag Prepare recorded for it when
   * it staged a pre-mapped body elsewhere; unknown (unset) for an inline body or a foreign address.
   */
  static Optional<Boolean> resultKeep(PipeStream stream, HopIdentity id) {
    if (!stream.hasDocumentRef()) {
      return Optional.empty();
    }
    DocumentReference ref = stream.getDocumentRef();
    if (ref.getGraphAddressId().equals(id.nodeId()) && ref.getGraphId().equals(id.graphId())) {
      return Optional.of(ref.getKeep());
    }
    String recorded =
        stream
            .getMetadata()
            .getContextParamsOrDefault(
                PrepareService.PRE_MAPPED_KEEP_PARAM_PREFIX + id.nodeId(), "");
    return switch (recorded) {
      case "true" -> Optional.of(true);
      case "false" -> Optional.of(false);
      default -> Optional.empty();
    };
  }

  private static Timestamp timestamp(Instant at) {
    return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
  }
}
