package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.TaskTokenCompletion;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.ErrorInfo;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.statemachines.ErrorNames;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code N.Dlq}: with {@code saveOnError} persists the failing body first (never a
 * right-to-be-forgotten one), then writes a {@code DlqMessage} with replay coordinates (execution
 * ARN, node, work unit id) to {@code topic} when {@code publish}, records the DEAD_LETTERED step and
 * returns {@code { dlqId, redriveCount }} (the execution's redrive count it was given). The dlq
 * id is deterministic, so a retried DLQ hop converges. Each published dead letter counts one
 * {@code DeadLettersPublished}, the metric the dead-letter alarm reads.
 *
 * <p>{@code N.DeadLettered} calls the same function with {@code hold: true} and its task token
 * (decision 1525): while the execution's redrive count is still the one the letter was written
 * under, the token fails with {@code ProtoMolt.DeadLettered} and the execution ends FAILED there;
 * once the execution was redriven since, the token succeeds and the walk goes back to the state
 * that failed.
 */
public final class DlqService {

  /** Context parameter counting how often a document was reprocessed from a dead letter. */
  public static final String REPROCESS_COUNT = "protomolt.dlq.reprocessCount";

  private final HopContext hop;
  private final MetricsSink metrics;
  private final TaskTokenCompletion tokens;

  /**
   * @param metrics where each published dead letter is counted
   * @param tokens answers {@code N.DeadLettered}'s task token
   */
  public DlqService(HopContext hop, MetricsSink metrics, TaskTokenCompletion tokens) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  public String handle(String payloadJson) {
    JsonNode payload = HopJson.parse(payloadJson);
    HopIdentity id = HopIdentity.of(payload);
    if (payload.path("hold").asBoolean(false)) {
      return hold(payload, id);
    }
    String topic = HopJson.text(payload, "topic");
    JsonNode failed = payload.get("failed");
    if (failed == null || !failed.isObject()) {
      throw new BadPayloadFailure("payload field 'failed' must be the failing state object");
    }
    PipeStream failedStream = HopJson.stream(failed, "stream");
    PipeStream stream;
    try {
      // A hop that failed before its Prepare produced the previous hop's reclaim requests still
      // settles that previous hop (decision 0816).
      stream = SettledReclaims.produceCarried(hop, failedStream);
    } catch (BadPayloadFailure malformed) {
      // A malformed request must not stop the dead letter; it stays in the stream it came in.
      stream = failedStream;
    }
    String workUnitId = HopJson.optionalText(failed, "workUnitId");
    JsonNode error = failed.path("error");
    ErrorInfo errorInfo =
        ErrorInfo.newBuilder()
            .setCode(error.path("Error").asText("Unknown"))
            .setMessage(error.path("Cause").asText(""))
            .build();
    String dlqId = StateMachineNames.hashOf("dlq", id.executionId(), id.nodeId(), workUnitId);
    int reprocessed =
        parseCount(stream.getMetadata().getContextParamsOrDefault(REPROCESS_COUNT, "0"));

    // A right-to-be-forgotten body is never written down, and a DLQ topic is a write: the message
    // keeps the coordinates and the error, not the document.
    boolean forgettable =
        SealedStreams.keyed(stream)
            || stream.hasDocument() && stream.getDocument().getOwnership().getRightToBeForgotten();
    DlqMessage.Builder message =
        DlqMessage.newBuilder()
            .setDlqId(dlqId)
            .setOriginalTopic(id.executionId())
            .setWorkUnitId(workUnitId)
            .setStream(forgettable ? stream.toBuilder().clearPayload().build() : stream)
            .setError(errorInfo)
            .setFailedAt(now())
            .setReprocessCount(reprocessed)
            .setClusterId(id.clusterId())
            .setGraphId(id.graphId())
            .setGraphVersion(id.graphVersion())
            .setNodeId(id.nodeId())
            .setExecutionArn(id.executionId());
    if (payload.path("saveOnError").asBoolean(false)) {
      message.setSavedBodyRef(saveBody(id, stream));
    }
    if (payload.path("publish").asBoolean(true)) {
      hop.events.publish(topic, dlqId, message.build().toByteArray());
      metrics.emit(PlatformMetric.DEAD_LETTERS_PUBLISHED, 1);
    }
    hop.recordStep(
        id,
        stream,
        hop.pinned(id).node(),
        StepStatus.STEP_STATUS_DEAD_LETTERED,
        workUnitId,
        List.of(),
        errorInfo);
    // A dead letter ends the walk: a right-to-be-forgotten body's data key goes (decision 1750).
    hop.forget(stream);
    ObjectNode out = HopJson.object();
    out.put("dlqId", dlqId);
    out.put("redriveCount", count(payload, "redriveCount"));
    return HopJson.print(out);
  }

  /**
   * {@code N.DeadLettered}: fails its token while the execution was not redriven since the dead
   * letter, else succeeds it with {@code { redriveCount, dlqId }}.
   */
  private String hold(JsonNode payload, HopIdentity id) {
    String token = HopJson.text(payload, "taskToken");
    String topic = HopJson.text(payload, "topic");
    int deadLetteredAt = count(payload, "deadLetteredAt");
    int redriveCount = count(payload, "redriveCount");
    String dlqId = HopJson.optionalText(payload, "dlqId");
    ObjectNode out = HopJson.object();
    try {
      if (redriveCount > deadLetteredAt) {
        out.put("redriveCount", redriveCount);
        out.put("dlqId", dlqId);
        tokens.succeed(token, HopJson.print(out));
      } else {
        tokens.fail(
            token,
            ErrorNames.DEAD_LETTERED,
            "Node '"
                + id.nodeId()
                + "' dead-lettered the document to "
                + topic
                + (payload.path("publish").asBoolean(true) ? "" : " (recorded, not published)")
                + ".");
      }
    } catch (RuntimeException e) {
      throw new TransientHopFailure(
          "answering the dead-letter state of node '" + id.nodeId() + "' failed: " + e.getMessage(),
          e);
    }
    return HopJson.print(out);
  }

  /** A redrive count in the payload: a non-negative integer, 0 when absent. */
  private static int count(JsonNode payload, String field) {
    JsonNode value = payload.get(field);
    if (value == null || value.isNull()) {
      return 0;
    }
    if (!value.canConvertToInt() || value.asInt() < 0) {
      throw new BadPayloadFailure("payload field '" + field + "' must be a non-negative integer");
    }
    return value.asInt();
  }

  private DocumentReference saveBody(HopIdentity id, PipeStream stream) {
    if (stream.hasDocumentRef()) {
      // Already stored at its address; the reference is the evidence.
      return stream.getDocumentRef();
    }
    if (!stream.hasDocument() || stream.getDocument().getOwnership().getRightToBeForgotten()) {
      return DocumentReference.getDefaultInstance();
    }
    try {
      return hop.staging.stage(
          stream.getDocument(),
          stream.getMetadata().getAccountId(),
          id.graphId(),
          id.nodeId(),
          true);
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "saving the failing body of doc '"
              + stream.getDocument().getDocId()
              + "' before dead-lettering failed: "
              + e.getMessage(),
          e);
    }
  }

  private Timestamp now() {
    Instant now = hop.clock.instant();
    return Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()).build();
  }

  private static int parseCount(String value) {
    try {
      return Math.max(0, Integer.parseInt(value));
    } catch (NumberFormatException e) {
      throw new BadPayloadFailure(
          "context param '" + REPROCESS_COUNT + "' must be an integer, was '" + value + "'");
    }
  }
}
