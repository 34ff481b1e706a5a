package dev.protomolt.engine.deadletters;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.proto.events.v1.DlqMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@link DeadLetterTopics} on Kafka (MSK in AWS). Each read assigns partitions by hand and seeks:
 * no consumer group commits anything, so listing never moves anyone's position and two operators
 * paging at once do not disturb each other.
 */
public final class KafkaDeadLetterTopics implements DeadLetterTopics {

  private static final Duration POLL = Duration.ofMillis(500);

  private final Supplier<Consumer<byte[], byte[]>> consumers;

  /** {@code connection}: bootstrap servers and the client settings (SASL/IAM on MSK). */
  public KafkaDeadLetterTopics(Map<String, Object> connection) {
    this(() -> connection);
  }

  /**
   * The connection is read at the first request, not when the function is wired: finding MSK's
   * brokers is a network call an invocation that is refused early should not pay.
   */
  public KafkaDeadLetterTopics(Supplier<Map<String, Object>> connection) {
    this.consumers =
        () -> {
          Map<String, Object> config = new HashMap<>(connection.get());
          config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
          config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
          return new KafkaConsumer<>(
              config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        };
  }

  @Override
  public Page read(List<String> topics, Position from, int limit) {
    List<DeadLetter> out = new ArrayList<>();
    try (Consumer<byte[], byte[]> consumer = consumers.get()) {
      Set<String> existing = consumer.listTopics().keySet();
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics.stream().sorted().distinct().toList()) {
        if (!existing.contains(topic)) {
          continue;
        }
        for (PartitionInfo p : consumer.partitionsFor(topic)) {
          partitions.add(new TopicPartition(topic, p.partition()));
        }
      }
      partitions.sort(
          Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions);
      for (TopicPartition tp : partitions) {
        if (from != null && before(tp, from)) {
          continue;
        }
        long start = starts.get(tp);
        if (from != null && from.topic().equals(tp.topic()) && from.partition() == tp.partition()) {
          start = Math.max(start, from.offset());
        }
        long end = ends.get(tp);
        long position = start;
        consumer.assign(List.of(tp));
        consumer.seek(tp, start);
        while (position < end) {
          if (out.size() == limit) {
            return new Page(out, Optional.of(new Position(tp.topic(), tp.partition(), position)));
          }
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL).records(tp)) {
            if (r.offset() >= end) {
              break;
            }
            position = r.offset() + 1;
            parse(r).ifPresent(out::add);
            if (out.size() == limit && position < end) {
              return new Page(out, Optional.of(new Position(tp.topic(), tp.partition(), position)));
            }
          }
          position = Math.max(position, consumer.position(tp));
        }
      }
    }
    return new Page(out, Optional.empty());
  }

  private static boolean before(TopicPartition tp, Position from) {
    int byTopic = tp.topic().compareTo(from.topic());
    return byTopic < 0 || (byTopic == 0 && tp.partition() < from.partition());
  }

  private static Optional<DeadLetter> parse(ConsumerRecord<byte[], byte[]> r) {
    try {
      return Optional.of(
          new DeadLetter(r.topic(), r.partition(), r.offset(), DlqMessage.parseFrom(r.value())));
    } catch (InvalidProtocolBufferException | NullPointerException e) {
      return Optional.empty();
    }
  }
}
