package dev.protomolt.gateway.diagnostics;

import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.engine.v1.ProbeResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces one canary record with the gateway's own connection settings (SASL/IAM on MSK) and reads
 * it back from the partition and offset the broker acknowledged. Every wait is bounded by {@code
 * timeout}: a stopped broker fails the produce step within it, naming the broker.
 */
public final class KafkaCanaryProbe {

  private final String bootstrap;
  private final Map<String, Object> connection;
  private final Duration timeout;

  public KafkaCanaryProbe(String bootstrap, Map<String, Object> connection, Duration timeout) {
    this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
    this.connection = Map.copyOf(connection);
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** Runs the probe on {@code topic}, the diagnostics topic when blank. */
  public ProbeResult probe(String topic) {
    String target =
        topic == null || topic.isBlank() ? PlatformTopic.DIAGNOSTICS.topicName() : topic;
    String broker = "Kafka broker at " + bootstrap;
    String canary = "canary-" + UUID.randomUUID();
    ProbeRun run = new ProbeRun("kafka");
    RecordMetadata[] written = new RecordMetadata[1];
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer())) {
      run.step(
          "produce",
          broker,
          () -> {
            written[0] =
                producer
                    .send(
                        new ProducerRecord<>(
                            target, canary, canary.getBytes(StandardCharsets.UTF_8)))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return "wrote "
                + canary
                + " to "
                + target
                + "-"
                + written[0].partition()
                + " at offset "
                + written[0].offset();
          });
      // A producer whose broker is gone would otherwise wait out its own close timeout.
      if (run.failed()) {
        producer.close(Duration.ZERO);
      }
    }
    if (run.failed()) {
      return run.result();
    }
    run.step(
        "consume",
        broker,
        () -> {
          TopicPartition partition = new TopicPartition(target, written[0].partition());
          try (KafkaConsumer<String, byte[]> consumer =
              new KafkaConsumer<>(
                  consumerConfig(), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, written[0].offset());
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
              for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (canary.equals(r.key())) {
                  return "read " + canary + " back from offset " + r.offset();
                }
              }
            }
          }
          throw new IllegalStateException(
              "the canary was not read back from "
                  + partition
                  + " within "
                  + timeout.toMillis()
                  + " ms");
        });
    return run.result();
  }

  private Map<String, Object> producerConfig() {
    Map<String, Object> c = new HashMap<>(connection);
    c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ProducerConfig.ACKS_CONFIG, "all");
    long ms = timeout.toMillis();
    // Metadata, the send and its retries all end inside the probe's timeout.
    c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms);
    c.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ms);
    c.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) ms);
    c.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    return c;
  }

  private Map<String, Object> consumerConfig() {
    Map<String, Object> c = new HashMap<>(connection);
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    // Assigned, never subscribed: no group, nothing committed, no other consumer disturbed.
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    return c;
  }
}
