package dev.protomolt.module.sdk;

import com.google.protobuf.Any;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import java.util.List;

/** Maps a typed outcome onto the {@code WorkAck.result} oneof, one branch per case. */
public final class WorkAckEncoder {

  private WorkAckEncoder() {}

  public static WorkAck encode(
      String workUnitId, ModuleOutcome outcome, List<String> logLines, long processingMs) {
    return encode(workUnitId, outcome, logLines, List.of(), processingMs);
  }

  /** As above, carrying a sink's indexing receipts. */
  public static WorkAck encode(
      String workUnitId,
      ModuleOutcome outcome,
      List<String> logLines,
      List<DocumentIndexedEvent> receipts,
      long processingMs) {
    WorkAck.Builder ack =
        WorkAck.newBuilder()
            .setWorkUnitId(workUnitId)
            .addAllLogLines(logLines)
            .addAllIndexingReceipts(receipts)
            .setProcessingMs(Math.max(0, processingMs));
    switch (outcome) {
      case ModuleOutcome.Updated updated -> ack.setUpdatedPayload(Any.pack(updated.document()));
      case ModuleOutcome.NoOp noOp ->
          ack.setNoOp(NoOpResult.newBuilder().setReason(noOp.reason()).setDetail(noOp.detail()));
      case ModuleOutcome.Reject reject ->
          ack.setReject(Reject.newBuilder().setReason(reject.reason()).setDetail(reject.detail()));
      case ModuleOutcome.RetryableFailure retry ->
          ack.setRetryableFailure(
              RetryableFailure.newBuilder()
                  .setReason(retry.reason())
                  .setDetail(retry.detail())
                  .setRetryAfterMs(retry.retryAfterMs()));
    }
    return ack.build();
  }
}
