package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.ErrorInfo;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.events.v1.DlqMessage;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code N.Dlq}: with {@code saveOnError} persists the failing body first (never a
 * right-to-be-forgotten one), then writes a {@code DlqMessage} with replay coordinates (execution
 * ARN, node, work unit id) to {@code topic} when {@code publish}, records the DEAD_LETTERED step and
 * returns {@code { dlqId }}. The dlq id is deterministic, so a retried DLQ hop converges. Each
 * published dead letter counts one {@code DeadLettersPublished}, the metric the dead-letter alarm
 * reads.
 */
public final class DlqService {

  /** Context parameter counting how often a document was reprocessed from a dead letter. */
  public static final String REPROCESS_COUNT = "protomolt.dlq.reprocessCount";

  private final HopContext hop;
  private final MetricsSink metrics;

  /** Emits no metric: for a platform whose dead-letter alarm is not CloudWatch's. */
  public DlqService(HopContext hop) {
    this(hop, (metric, value, dimensions) -> {});
  }

  public DlqService(HopContext hop, MetricsSink metrics) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public String handle(String payloadJson) {
    JsonNode payload = HopJson.parse(payloadJson);
    HopIdentity id = HopIdentity.of(payload);
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
    return HopJson.print(out);
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
