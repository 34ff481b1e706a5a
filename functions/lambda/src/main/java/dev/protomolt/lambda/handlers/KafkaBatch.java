package dev.protomolt.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.KafkaEvent;
import com.amazonaws.services.lambda.runtime.events.KafkaEvent.KafkaEventRecord;
import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.lambda.AwsEvents;
import dev.protomolt.lambda.EventJson;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The records of an MSK event ({@code eventSource: aws:kafka}), read as AWS's {@link KafkaEvent}:
 * grouped under {@code "<topic>-<partition>"}, key and value base64. Records come out group by
 * group in the order the event lists them, which keeps each partition's order.
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
    json.objectField(event, "", "records");
    KafkaEvent typed = AwsEvents.read(json, event, KafkaEvent.class, "an MSK event");
    List<KafkaRecord> records = new ArrayList<>();
    for (Map.Entry<String, List<KafkaEventRecord>> group : typed.getRecords().entrySet()) {
      String groupPath = "records[\"" + group.getKey() + "\"]";
      if (group.getValue() == null) {
        throw json.refuse(groupPath, "must be a JSON array of records");
      }
      for (int i = 0; i < group.getValue().size(); i++) {
        String path = groupPath + "[" + i + "]";
        KafkaEventRecord r = group.getValue().get(i);
        if (r == null) {
          throw json.refuse(path, "must be a JSON object");
        }
        String topic = r.getTopic();
        if (topic == null || topic.isBlank()) {
          throw json.refuse(path + ".topic", "must be a non-blank string");
        }
        int partition = r.getPartition();
        if (partition < 0) {
          throw json.refuse(path + ".partition", "must be a whole number of at least 0");
        }
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
        long offset = r.getOffset();
        if (offset < 0) {
          throw json.refuse(path + ".offset", "must be a whole number of at least 0");
        }
        byte[] key = r.getKey() == null ? null : base64(json, r.getKey(), path + ".key");
        if (r.getValue() == null) {
          throw json.refuse(
              path + ".value",
              "is missing: every record on this topic carries a protobuf"
                  + " value (offset "
                  + offset
                  + ")");
        }
        records.add(
            new KafkaRecord(
                topic, partition, offset, key, base64(json, r.getValue(), path + ".value"), path));
      }
    }
    return records;
  }

  private static byte[] base64(EventJson json, String text, String path) {
    // An empty string is an empty byte array: a protobuf message with every field at its default.
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw json.refuse(path, "must be base64: " + e.getMessage(), e);
    }
  }
}
