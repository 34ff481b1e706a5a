package dev.protomolt.engine.hop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.data.v1.PipeStream;

/**
 * The JSON the hop services read and write: Jackson for the envelope, protobuf JSON
 * (lowerCamelCase) for the stream. Every missing or malformed field is a {@link HopFailure} named
 * {@link BadPayloadFailure} that names the field.
 */
final class HopJson {

  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private HopJson() {}

  static JsonNode parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (node == null || !node.isObject()) {
        throw new BadPayloadFailure("payload must be a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new BadPayloadFailure("payload is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String text(JsonNode payload, String field) {
    JsonNode value = payload.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw new BadPayloadFailure("payload field '" + field + "' must be a non-blank string");
    }
    return value.asText();
  }

  static String optionalText(JsonNode payload, String field) {
    JsonNode value = payload.get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }

  static long positiveLong(JsonNode payload, String field) {
    JsonNode value = payload.get(field);
    if (value == null || !value.canConvertToLong() || value.asLong() <= 0) {
      throw new BadPayloadFailure("payload field '" + field + "' must be a positive integer");
    }
    return value.asLong();
  }

  static PipeStream stream(JsonNode payload, String field) {
    JsonNode value = payload.get(field);
    if (value == null || !value.isObject()) {
      throw new BadPayloadFailure("payload field '" + field + "' must be a PipeStream object");
    }
    PipeStream.Builder stream = PipeStream.newBuilder();
    try {
      PARSER.merge(value.toString(), stream);
    } catch (InvalidProtocolBufferException e) {
      throw new BadPayloadFailure(
          "payload field '" + field + "' is not a valid PipeStream: " + e.getMessage(), e);
    }
    return stream.build();
  }

  static JsonNode tree(PipeStream stream) {
    try {
      return MAPPER.readTree(PRINTER.print(stream));
    } catch (InvalidProtocolBufferException | JsonProcessingException e) {
      throw new IllegalStateException("a PipeStream must print as JSON", e);
    }
  }

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String print(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree must print", e);
    }
  }
}
