package dev.protomolt.engine.admission;

import dev.protomolt.core.memo.MemoPolicy;
import dev.protomolt.proto.data.v1.PipeStream;

/**
 * One document arriving on a datasource: the saved intake copy by reference, or an inline body.
 * Every field is required; admission stamps the graph identity onto {@code stream}.
 */
public record Intake(String accountId, String datasourceId, String docId, PipeStream stream) {

  public Intake {
    requireText("accountId", accountId);
    requireText("datasourceId", datasourceId);
    requireText("docId", docId);
    if (stream == null) {
      throw new IllegalArgumentException("stream is required");
    }
    if (stream.getPayloadCase() == PipeStream.PayloadCase.PAYLOAD_NOT_SET) {
      throw new IllegalArgumentException(
          "stream must carry the body inline (document) or by reference "
              + "(document_ref); doc '"
              + docId
              + "' has neither");
    }
  }

  /**
   * This intake marked as started by replay {@code replayId}: every hop of its execution sees the
   * mark, which is what turns memoization on by default (decision 1812).
   */
  public Intake replayedBy(String replayId) {
    requireText("replayId", replayId);
    return new Intake(
        accountId,
        datasourceId,
        docId,
        stream.toBuilder()
            .setMetadata(
                stream.getMetadata().toBuilder()
                    .putContextParams(MemoPolicy.REPLAY_PARAM, replayId))
            .build());
  }

  private static void requireText(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}
