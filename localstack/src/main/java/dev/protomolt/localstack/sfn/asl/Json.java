package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one JSON mapper of the local runtime. Execution data is kept as Jackson trees because ASL
 * paths, payload templates and the wire protocol all work on untyped JSON.
 */
public final class Json {

  public static final ObjectMapper MAPPER = new ObjectMapper();
  public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** Parses JSON text; malformed text is an {@link IllegalArgumentException} naming the problem. */
  public static JsonNode parse(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("empty JSON text");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Compact JSON text, the form Step Functions uses for inputs and outputs on the wire. */
  public static String print(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }

  public static ObjectNode object() {
    return NODES.objectNode();
  }
}
