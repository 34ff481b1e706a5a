package dev.protomolt.bench.throughput;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The records the platform produced between two moments, per topic, and their bytes: end
 * offsets before and after, then the new records read once to weigh them (MSK bills bytes).
 */
final class KafkaRecords implements AutoCloseable {

  /** What one topic gained. */
  record Gain(long records, long bytes) {}

  private final Admin admin;
  private final String bootstrap;

  KafkaRecords(String bootstrap) {
    this.bootstrap = bootstrap;
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    admin = Admin.create(p);
  }

  /** Every partition's end offset now. */
  Map<TopicPartition, Long> endOffsets() throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (TopicDescription topic :
        admin.describeTopics(admin.listTopics().names().get()).allTopicNames().get().values()) {
      topic
          .partitions()
          .forEach(
              p ->
                  latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
    }
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
    return ends;
  }

  /** Partitions the platform's topics have, for the partition-hour price. */
  int partitions() throws Exception {
    return endOffsets().size();
  }

  /** Per topic, the records between {@code before} and now, read to count their bytes. */
  Map<String, Gain> since(Map<TopicPartition, Long> before) throws Exception {
    Map<TopicPartition, Long> after = endOffsets();
    Map<String, Gain> gains = new TreeMap<>();
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      for (Map.Entry<TopicPartition, Long> end : after.entrySet()) {
        TopicPartition tp = end.getKey();
        long from = before.getOrDefault(tp, 0L);
        if (end.getValue() <= from) {
          continue;
        }
        consumer.assign(List.of(tp));
        consumer.seek(tp, from);
        long records = 0;
        long bytes = 0;
        long position = from;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (position < end.getValue() && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
            if (r.offset() >= end.getValue()) {
              break;
            }
            records++;
            bytes += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
            position = r.offset() + 1;
          }
        }
        Gain old = gains.getOrDefault(tp.topic(), new Gain(0, 0));
        // Offsets also count transaction markers: the records read are what was produced.
        gains.put(tp.topic(), new Gain(old.records() + records, old.bytes() + bytes));
      }
    }
    return gains;
  }

  @Override
  public void close() {
    admin.close();
  }
}
