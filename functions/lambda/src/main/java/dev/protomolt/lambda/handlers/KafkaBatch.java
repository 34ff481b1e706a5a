package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.lambda.EventJson;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The records of an MSK event ({@code eventSource: aws:kafka}): grouped under
 * {@code "<topic>-<partition>"}, key and value base64, headers as arrays of byte values. Records
 * come out group by group in the order the event lists them, which keeps each partition's order.
 */
public final class KafkaBatch {

  /** One record, decoded; {@code key} is null when the record had none. */
  public record KafkaRecord(
      String topic, int partition, long offset, byte[] key, byte[] value, String path) {}

  private KafkaBatch() {}

  /** Every record of {@code event}; refuses a malformed record naming its path. */
  public static List<KafkaRecord> records(EventJson json, JsonNode event) {
    String source = json.text(event, "", "eventSource");
    if (!source.equals("aws:kafka") && !source.equals("SelfManagedKafka")) {
      throw json.refuse(
          "eventSource", "must be aws:kafka (an MSK event-source mapping), was '" + source + "'");
    }
    JsonNode groups = json.objectField(event, "", "records");
    List<KafkaRecord> records = new ArrayList<>();
    for (Map.Entry<String, JsonNode> group : groups.properties()) {
      String groupPath = "records[\"" + group.getKey() + "\"]";
      if (!group.getValue().isArray()) {
        throw json.refuse(groupPath, "must be a JSON array of records");
      }
      for (int i = 0; i < group.getValue().size(); i++) {
        String path = groupPath + "[" + i + "]";
        JsonNode r = group.getValue().get(i);
        if (!r.isObject()) {
          throw json.refuse(path, "must be a JSON object");
        }
        String topic = json.text(r, path, "topic");
        int partition = Math.toIntExact(json.integer(r, path, "partition", 0));
        if (!group.getKey().equals(topic + "-" + partition)) {
          throw json.refuse(
              path,
              "is listed under '"
                  + group.getKey()
                  + "' but names topic '"
                  + topic
                  + "' partition "
                  + partition);
        }
        long offset = json.integer(r, path, "offset", 0);
        byte[] key = r.hasNonNull("key") ? base64(json, r, path, "key") : null;
        if (!r.hasNonNull("value")) {
          throw json.refuse(
              path + ".value",
              "is missing: every record on this topic carries a protobuf"
                  + " value (offset "
                  + offset
                  + ")");
        }
        records.add(
            new KafkaRecord(topic, partition, offset, key, base64(json, r, path, "value"), path));
      }
    }
    return records;
  }

  private static byte[] base64(EventJson json, JsonNode record, String path, String field) {
    JsonNode value = record.get(field);
    if (!value.isTextual()) {
      throw json.refuse(path + "." + field, "must be a base64 string");
    }
    // An empty string is an empty byte array: a protobuf message with every field at its default.
    String text = value.asText();
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw json.refuse(path + "." + field, "must be base64: " + e.getMessage(), e);
    }
  }
}
