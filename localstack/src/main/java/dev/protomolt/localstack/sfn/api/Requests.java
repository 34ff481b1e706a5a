package dev.protomolt.localstack.sfn.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.SfnApiException;
import java.time.Instant;

/** Reading request fields and writing timestamps the way AWS JSON 1.0 carries them. */
final class Requests {

  private Requests() {}

  static String required(JsonNode request, String field) {
    JsonNode value = request.get(field);
    if (value == null || value.isNull() || !value.isTextual() || value.textValue().isEmpty()) {
      throw new SfnApiException(
          "ValidationException",
          "1 validation error detected: Value at '"
              + field
              + "' failed to satisfy constraint: Member must not be null");
    }
    return value.textValue();
  }

  static String optional(JsonNode request, String field) {
    JsonNode value = request.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  /** AWS JSON 1.0 timestamps are epoch seconds with a fractional part. */
  static double epochSeconds(Instant instant) {
    return instant.toEpochMilli() / 1000.0;
  }
}
