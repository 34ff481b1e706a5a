package dev.protomolt.localstack.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The {@code KafkaEvent} document an MSK event-source mapping sends a function: records grouped
 * under {@code "<topic>-<partition>"}, keys and values base64, headers as byte arrays (see
 * "Using Lambda with Amazon MSK", example event, in the Lambda developer guide).
 */
public final class KafkaEventJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private KafkaEventJson() {}

  public static String of(
      String eventSourceArn, String bootstrapServers, List<ConsumerRecord<byte[], byte[]>> batch) {
    ObjectNode root = JSON.createObjectNode();
    root.put("eventSource", "aws:kafka");
    root.put("eventSourceArn", eventSourceArn);
    root.put("bootstrapServers", bootstrapServers);
    ObjectNode records = root.putObject("records");
    Base64.Encoder base64 = Base64.getEncoder();
    for (ConsumerRecord<byte[], byte[]> record : batch) {
      String group = record.topic() + "-" + record.partition();
      ArrayNode list =
          records.has(group) ? (ArrayNode) records.get(group) : records.putArray(group);
      ObjectNode out = list.addObject();
      out.put("topic", record.topic());
      out.put("partition", record.partition());
      out.put("offset", record.offset());
      out.put("timestamp", record.timestamp());
      out.put("timestampType", record.timestampType().name());
      // A null key or value is left out, as Lambda leaves it out.
      if (record.key() != null) {
        out.put("key", base64.encodeToString(record.key()));
      }
      if (record.value() != null) {
        out.put("value", base64.encodeToString(record.value()));
      }
      ArrayNode headers = out.putArray("headers");
      for (Header header : record.headers()) {
        ArrayNode bytes = headers.addObject().putArray(header.key());
        if (header.value() != null) {
          for (byte b : header.value()) {
            bytes.add(b);
          }
        }
      }
    }
    return root.toString();
  }
}
