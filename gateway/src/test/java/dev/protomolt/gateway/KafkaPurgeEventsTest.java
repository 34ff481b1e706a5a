package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.cloud.LoopbackPort;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import java.nio.file.Path;
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
import org.junit.jupiter.api.io.TempDir;

/** Purge events reach the storage-purge topic keyed by node id, or the publish fails loudly. */
class KafkaPurgeEventsTest {

  @TempDir static Path data;

  static LocalKafka kafka;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
  }

  @AfterAll
  static void stopKafka() {
    kafka.close();
  }

  @Test
  void publishesEachEventKeyedByItsNodeId() throws Exception {
    StoragePurgeEvent event =
        StoragePurgeEvent.newBuilder()
            .setPurgeEventId("p-1")
            .setNodeId("0b6b3a5e-0000-3000-8000-000000000001")
            .setAccountId("acme")
            .addObjectKeys("0b6b3a5e/core.pb")
            .build();
    try (KafkaPurgeEvents sink = new KafkaPurgeEvents(kafka.bootstrapServers())) {
      sink.publish(event);
    }

    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "purge-test",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(KafkaPurgeEvents.TOPIC));
      for (int polls = 0; polls < 60 && records.isEmpty(); polls++) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }

    assertThat(records).hasSize(1);
    assertThat(records.get(0).key()).isEqualTo(event.getNodeId());
    assertThat(StoragePurgeEvent.parseFrom(records.get(0).value())).isEqualTo(event);
  }

  @Test
  void anUnreachableBrokerFailsThePublishNamingTheEvent() {
    String nowhere = LoopbackPort.HOST + ":" + LoopbackPort.claim(0, "unused port", "none");
    try (KafkaPurgeEvents sink = new KafkaPurgeEvents(nowhere, Duration.ofSeconds(3))) {
      assertThatThrownBy(
              () ->
                  sink.publish(
                      StoragePurgeEvent.newBuilder()
                          .setPurgeEventId("p-2")
                          .setNodeId("n-2")
                          .build()))
          .hasMessageContaining("purge event p-2 for node n-2 was not accepted by storage-purge");
    }
  }
}
