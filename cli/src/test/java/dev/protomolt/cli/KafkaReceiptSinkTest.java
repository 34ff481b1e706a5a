package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The receipt publisher makes the sample sink's receipts acceptable to the indexing ledger (a plan,
 * a stored-state node id) and keeps what the sink set right. Publishing is proven on the running
 * platform (LocalPlatformEventSourcesTest).
 */
class KafkaReceiptSinkTest {

  static final DocumentIndexedEvent FROM_THE_SINK =
      DocumentIndexedEvent.newBuilder()
          .setDocId("d1")
          .setAccountId("acme")
          .setGraphId("demo")
          .setNodeId("index")
          .setIndexName("protomolt-sample")
          .build();

  @Test
  void aBlankPlanIsFilledAndAGraphNodeIdBecomesTheStoredStatesId() {
    withSink(
        sink -> {
          DocumentIndexedEvent ready = sink.forTheLedger(FROM_THE_SINK);
          assertThat(ready.getPlanId()).isEqualTo("plan-a");
          assertThat(ready.getNodeId())
              .isEqualTo(NodeIds.nodeId("d1", "index", "acme", "demo").toString());
        });
  }

  @Test
  void whatTheSinkSetRightIsKept() {
    String stored = UUID.randomUUID().toString();
    withSink(
        sink -> {
          DocumentIndexedEvent ready =
              sink.forTheLedger(
                  FROM_THE_SINK.toBuilder().setPlanId("plan-b").setNodeId(stored).build());
          assertThat(ready.getPlanId()).isEqualTo("plan-b");
          assertThat(ready.getNodeId()).isEqualTo(stored);
          assertThat(sink.forTheLedger(FROM_THE_SINK.toBuilder().clearNodeId().build()).getNodeId())
              .as("no node id stays none")
              .isEmpty();
        });
  }

  private static void withSink(Consumer<KafkaReceiptSink> use) {
    try (KafkaProducer<String, byte[]> producer = neverConnected()) {
      use.accept(new KafkaReceiptSink(producer, Duration.ofSeconds(1), "plan-a"));
    }
  }

  /** A real producer that never connects: construction does not reach the broker. */
  private static KafkaProducer<String, byte[]> neverConnected() {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"),
        new StringSerializer(),
        new ByteArraySerializer());
  }

  @Test
  void aBlankPlanIsRefusedNamingTheField() {
    try (KafkaProducer<String, byte[]> producer = neverConnected()) {
      for (String plan : new String[] {null, "", "  "}) {
        assertThatThrownBy(() -> new KafkaReceiptSink(producer, Duration.ofSeconds(1), plan))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("planId")
            .hasMessageContaining("index plan");
      }
    }
  }
}
