package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.cloud.LoopbackPort;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Kafka event bus against an in-process KRaft broker. */
class KafkaEventBusTest {

  private static LocalKafka kafka;

  @BeforeAll
  static void start() throws Exception {
    kafka = LocalKafka.start(Files.createTempDirectory("kafka"), 0, 0);
  }

  @AfterAll
  static void stop() throws Exception {
    kafka.close();
  }

  @Test
  void aDispatchIsOnTheModuleTopicKeyedByItsWorkUnitWhenPublishReturns() {
    String topic = EventBus.moduleTopic("parser");
    try (KafkaEventBus bus =
        KafkaEventBus.connect(kafka.bootstrapServers(), Duration.ofSeconds(30))) {
      bus.publish(topic, "wu-1", new byte[] {1, 2, 3});
      bus.publish(topic, "wu-2", new byte[] {4});
    }
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "engine-hop-test",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (records.size() < 2 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    assertThat(records).extracting(ConsumerRecord::key).containsExactly("wu-1", "wu-2");
    assertThat(records.getFirst().value()).containsExactly(1, 2, 3);
  }

  @Test
  void anUnreachableBrokerIsATransientHopFailure() throws Exception {
    int closedPort = LoopbackPort.claim(0, "unused port", "none");
    try (KafkaEventBus bus =
        KafkaEventBus.connect("127.0.0.1:" + closedPort, Duration.ofSeconds(2))) {
      assertThatThrownBy(() -> bus.publish("pipeline-events", "k", new byte[] {1}))
          .isInstanceOfSatisfying(
              HopFailure.class, e -> assertThat(e.errorType()).isEqualTo(HopFailure.TRANSIENT))
          .hasMessageContaining("record k on pipeline-events");
    }
  }
}
