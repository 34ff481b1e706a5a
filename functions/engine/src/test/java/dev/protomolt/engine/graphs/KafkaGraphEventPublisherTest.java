package dev.protomolt.engine.graphs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphUpdateApplier;
import dev.protomolt.core.graph.InMemoryVersionPins;
import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.cloud.LoopbackPort;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The graph-updates adapter against a real in-process KRaft broker. */
class KafkaGraphEventPublisherTest {

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
  void eventsLandOnGraphUpdatesKeyedByGraphInOrder() throws Exception {
    try (KafkaGraphEventPublisher publisher =
        KafkaGraphEventPublisher.connect(kafka.bootstrapServers(), Duration.ofSeconds(30))) {
      for (GraphUpdateType type :
          List.of(
              GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED,
              GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED,
              GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED)) {
        publisher.publish(
            GraphUpdateEvent.newBuilder()
                .setEventId("ev-" + type.getNumber())
                .setType(type)
                .setGraphId("g")
                .setClusterId("c1")
                .setVersion(1)
                .setGraph(SampleGraphs.linear("g", 1))
                .build());
      }
    }
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "engine-test-host",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(KafkaGraphEventPublisher.TOPIC));
      for (int i = 0; i < 60 && records.size() < 3; i++) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }
    assertThat(records).hasSize(3);
    assertThat(records).extracting(ConsumerRecord::key).containsOnly("g");
    List<GraphUpdateEvent> events = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      events.add(GraphUpdateEvent.parseFrom(r.value()));
      assertThat(
              new String(
                  r.headers().lastHeader(KafkaGraphEventPublisher.TYPE_HEADER).value(),
                  StandardCharsets.UTF_8))
          .isEqualTo(events.getLast().getType().name());
    }
    assertThat(events)
        .extracting(GraphUpdateEvent::getType)
        .containsExactly(
            GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED,
            GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED,
            GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED);
    assertThat(events.getFirst().getGraph().getNodesCount()).isEqualTo(4);
  }

  @Test
  void anActivationReachesAnotherInstancesCacheThroughGraphUpdates() throws Exception {
    GraphStore store = new PostgresGraphStore(EmbeddedDatabase.emptied());
    FakeClock clock = new FakeClock(Instant.EPOCH);
    GraphCache remote =
        new GraphCache(
            new StoredVersionSource(store),
            GraphAdminServiceTest.CEL,
            clock,
            Duration.ofMinutes(30));
    GraphUpdateApplier applier = new GraphUpdateApplier(remote);
    try (KafkaGraphEventPublisher publisher =
            KafkaGraphEventPublisher.connect(kafka.bootstrapServers(), Duration.ofSeconds(30));
        KafkaConsumer<String, byte[]> consumer =
            new KafkaConsumer<>(
                Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    // Per-host group: every instance gets its own copy of every event.
                    ConsumerConfig.GROUP_ID_CONFIG, "pipestream-engine-host-b",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
      GraphAdminService admin =
          new GraphAdminService(
              store,
              new InMemoryVersionPins(),
              publisher,
              GraphValidator.standard(GraphAdminServiceTest.CEL, GraphAdminServiceTest.TENANCY),
              clock);
      admin.createAndActivate(SampleGraphs.linear("wire", 0), OptionalLong.empty(), "ann");
      admin.deactivate("wire", "c1");
      admin.activate("wire", "c1", 1);

      consumer.subscribe(List.of(KafkaGraphEventPublisher.TOPIC));
      List<GraphUpdateEvent> forWire = new ArrayList<>();
      for (int i = 0; i < 60 && forWire.size() < 4; i++) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (r.key().equals("wire")) {
            forWire.add(GraphUpdateEvent.parseFrom(r.value()));
          }
        }
      }
      assertThat(forWire)
          .extracting(GraphUpdateEvent::getType)
          .containsExactly(
              GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED,
                  GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED,
              GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED,
                  GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED);
      forWire.forEach(applier::apply);
      assertThat(remote.activeVersion("wire")).contains(1L);
      assertThat(remote.deactivationEpoch("wire")).isEqualTo(1);
      assertThat(remote.reloads())
          .as("the broadcast carried the snapshot; no reload needed")
          .isZero();
      // Replaying the first activation (read before the deactivation) cannot switch anything back.
      assertThat(applier.apply(forWire.get(1))).isEqualTo(GraphUpdateApplier.Outcome.STALE_IGNORED);
    }
  }

  @Test
  void anUnreachableBrokerIsALoudFailure() throws Exception {
    String nowhere = "127.0.0.1:" + LoopbackPort.claim(0, "unused port", "none");
    try (KafkaGraphEventPublisher publisher =
        KafkaGraphEventPublisher.connect(nowhere, Duration.ofMillis(1500))) {
      assertThatThrownBy(
              () ->
                  publisher.publish(
                      GraphUpdateEvent.newBuilder()
                          .setType(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED)
                          .setGraphId("g")
                          .setVersion(2)
                          .build()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith(
              "publishing GRAPH_UPDATE_TYPE_ACTIVATED of graph 'g' version 2 to graph-updates");
    }
  }
}
