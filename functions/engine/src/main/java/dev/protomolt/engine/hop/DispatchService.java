package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.memo.MemoKey;
import dev.protomolt.core.memo.MemoPolicy;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.core.orchestration.TaskTokenCompletion;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
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
 *
 * <p>A memoized hop (decision 1812) produces no dispatch: when the node's memo index holds an
 * output recorded under this hop's key, and that output is still stored as it was, the dispatch
 * function completes the token itself with that output and no module is called. Otherwise the
 * dispatched stream carries the input's checksum so Complete can record the module's output.
 */
public final class DispatchService {

  private final HopContext hop;
  private final MetricsSink metrics;
  private final MemoLookup lookup;
  private final TaskTokenCompletion tokens;

  /** Emits no metric: for a platform whose gateway service is never scaled to zero. */
  public DispatchService(HopContext hop) {
    this(hop, (metric, value, dimensions) -> {});
  }

  /** Memoizes nothing. */
  public DispatchService(HopContext hop, MetricsSink metrics) {
    this(hop, metrics, HopMemos.NONE, null);
  }

  /**
   * @param metrics where each produced dispatch is counted ({@code ModuleDispatches}): the signal
   *     that wakes a gateway service scaled to zero (decision 1654)
   * @param memos the memo index hops look their key up in
   * @param tokens completes a memoized hop's task; may be null only with {@link HopMemos#NONE}
   */
  public DispatchService(
      HopContext hop, MetricsSink metrics, HopMemos memos, TaskTokenCompletion tokens) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.lookup = new MemoLookup(hop, Objects.requireNonNull(memos, "memos"));
    if (tokens == null && memos != HopMemos.NONE) {
      throw new IllegalArgumentException("a memo index needs a task token completion");
    }
    this.tokens = tokens;
  }

  public String handle(String payloadJson) {
    dispatch(HopJson.parse(payloadJson));
    return "{}";
  }

  /**
   * Dispatches the hop {@code payload} names (a Work state's payload), or completes its task with
   * a memoized output. Also reached from a Complete that hands its next node's work on itself
   * (decision 1842), with the task token of that Complete's state.
   */
  void dispatch(JsonNode payload) {
    HopIdentity id = HopIdentity.of(payload);
    String moduleId = HopJson.text(payload, "moduleId");
    String taskToken = HopJson.text(payload, "taskToken");
    String workUnitId = HopJson.text(payload, "workUnitId");
    // A node the Complete before it prepared (decision 1832) is entered here first: the requests
    // that Complete carried go out now that its result is recorded, as Prepare would send them
    // (decision 0816). A stream from Prepare carries none.
    PipeStream stream = SettledReclaims.produceCarried(hop, HopJson.stream(payload, "stream"));
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
    Optional<PipeDocManifest> input = lookup.input(id, pinned, stream);
    if (input.isPresent()) {
      MemoKey key = MemoLookup.key(id, pinned, stream, input.get());
      Optional<PipeStream> memoized =
          MemoPolicy.reuses(pinned.node(), stream) ? lookup.reuse(key, stream) : Optional.empty();
      if (memoized.isPresent()) {
        succeed(memoized.get(), taskToken, workUnitId);
        return;
      }
      stream =
          stream.toBuilder()
              .setMetadata(
                  stream.getMetadata().toBuilder()
                      .putContextParams(
                          MemoPolicy.INPUT_PARAM_PREFIX + id.nodeId(), input.get().getChecksum()))
              .build();
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
  }

  /**
   * Completes a waiting Complete state's own task with {@code output}: that state handed no work
   * on (decision 1843), so nothing else will answer its token.
   */
  void answer(String taskToken, String output) {
    if (tokens == null) {
      throw new IllegalStateException(
          "this dispatch has no task token completion; wire one to answer a waiting Complete");
    }
    try {
      tokens.succeed(taskToken, output);
    } catch (RuntimeException e) {
      throw new TransientHopFailure("answering the waiting Complete failed: " + e.getMessage(), e);
    }
  }

  /** Completes the hop's task with its memoized output instead of dispatching it. */
  private void succeed(PipeStream memoized, String taskToken, String workUnitId) {
    ObjectNode ack = HopJson.object();
    ack.put("workUnitId", workUnitId);
    ack.put("outcome", "CONTINUE");
    ack.set("stream", HopJson.tree(memoized));
    try {
      tokens.succeed(taskToken, HopJson.print(ack));
    } catch (RuntimeException e) {
      throw new TransientHopFailure(
          "completing memoized work unit " + workUnitId + " failed: " + e.getMessage(), e);
    }
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
