package dev.protomolt.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Reads one function's event with Jackson and names every refusal by its path in the event
 * ({@code Records[0].s3.object.key}) and the rule, through {@link InvalidEventException}.
 */
public final class EventJson {

  public static final ObjectMapper MAPPER = new ObjectMapper();

  private final String function;

  public EventJson(String function) {
    this.function = function;
  }

  public String function() {
    return function;
  }

  /** The whole event, which must be one JSON object. */
  public JsonNode object(InputStream event) throws IOException {
    JsonNode node;
    try {
      node = MAPPER.readTree(event);
    } catch (JsonProcessingException e) {
      throw refuse("the event", "must be JSON: " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw refuse("the event", "must be a JSON object");
    }
    return node;
  }

  /** A non-blank string at {@code path}. */
  public String text(JsonNode parent, String path, String field) {
    JsonNode value = parent.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw refuse(join(path, field), "must be a non-blank string");
    }
    return value.asText();
  }

  /** A string at {@code path}, empty when absent or null. */
  public String optionalText(JsonNode parent, String path, String field) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isTextual()) {
      throw refuse(join(path, field), "must be a string when present");
    }
    return value.asText();
  }

  /** A whole number of at least {@code min} at {@code path}. */
  public long integer(JsonNode parent, String path, String field, long min) {
    JsonNode value = parent.get(field);
    if (value == null
        || !value.canConvertToLong()
        || !value.isIntegralNumber()
        || value.asLong() < min) {
      throw refuse(join(path, field), "must be a whole number of at least " + min);
    }
    return value.asLong();
  }

  /** A whole number of at least {@code min}, or {@code fallback} when absent. */
  public long optionalInteger(JsonNode parent, String path, String field, long min, long fallback) {
    JsonNode value = parent.get(field);
    return value == null || value.isNull() ? fallback : integer(parent, path, field, min);
  }

  /** A JSON object at {@code path}. */
  public JsonNode objectField(JsonNode parent, String path, String field) {
    JsonNode value = parent.get(field);
    if (value == null || !value.isObject()) {
      throw refuse(join(path, field), "must be a JSON object");
    }
    return value;
  }

  /** A JSON array at {@code path}. */
  public JsonNode arrayField(JsonNode parent, String path, String field) {
    JsonNode value = parent.get(field);
    if (value == null || !value.isArray()) {
      throw refuse(join(path, field), "must be a JSON array");
    }
    return value;
  }

  public InvalidEventException refuse(String field, String rule) {
    return new InvalidEventException(function, field, rule);
  }

  public InvalidEventException refuse(String field, String rule, Throwable cause) {
    return new InvalidEventException(function, field, rule, cause);
  }

  public static ObjectNode reply() {
    return MAPPER.createObjectNode();
  }

  public static void write(OutputStream out, JsonNode reply) throws IOException {
    out.write(MAPPER.writeValueAsBytes(reply));
  }

  public static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }
}
