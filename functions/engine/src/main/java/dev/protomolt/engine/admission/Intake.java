package dev.protomolt.engine.admission;

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

  private static void requireText(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}
