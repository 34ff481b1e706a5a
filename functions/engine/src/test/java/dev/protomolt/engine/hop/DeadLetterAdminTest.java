package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.engine.deadletters.DeadLetterAdmin.Verdict;
import dev.protomolt.engine.deadletters.DeadLetterQuarantine;
import dev.protomolt.engine.deadletters.DeadLetterRefused;
import dev.protomolt.engine.deadletters.KafkaDeadLetterTopics;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter door on real components: dead letters made by the hop services on the local
 * Step Functions runtime, read back from a real Kafka DLQ topic, reprocessed on the pinned version
 * up to the node's cap of 3, then quarantined in Postgres with the reason.
 *
 * <p>The harness's event bus records what the hops publish (other tests assert on it); each new
 * record on the DLQ topic is forwarded to the broker as the DLQ hop would have produced it, so
 * everything the door reads comes from Kafka.
 */
class DeadLetterAdminTest {

  /** Each test has a fresh database, so a graph (and a DLQ topic) of its own on the one broker. */
  private static final java.util.concurrent.atomic.AtomicInteger GRAPHS =
      new java.util.concurrent.atomic.AtomicInteger();

  private static LocalKafka kafka;
  private static Admin kafkaAdmin;
  private static KafkaProducer<String, byte[]> producer;

  private HopHarness h;
  private DeadLetterAdmin door;
  private int forwarded;
  private String graph;
  private String topic;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start(Files.createTempDirectory("kafka-dlq-admin"), 0, 0, false);
    Map<String, Object> config =
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    kafkaAdmin = Admin.create(config);
    producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
            new StringSerializer(),
            new ByteArraySerializer());
  }

  @AfterAll
  static void stopKafka() {
    producer.close();
    kafkaAdmin.close();
    kafka.close();
  }

  @BeforeEach
  void start() throws Exception {
    h = new HopHarness();
    forwarded = 0;
    graph = "dl" + GRAPHS.incrementAndGet();
    topic = EventBus.dlqTopic("c1", graph, "parse");
    kafkaAdmin
        .createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    door =
        new DeadLetterAdmin(
            h.store,
            new KafkaDeadLetterTopics(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())),
            new DeadLetterQuarantine(h.dataSource),
            new DlqReprocessService(h.store, new SfnStateMachines(h.sfn, EngineTestClients.ROLE)),
            Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC));
    h.admin.create(linear(graph, 0), OptionalLong.empty(), "ann");
    h.activation.activate(graph, "c1", 1);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void reprocessesUpToTheCapThenQuarantinesWithTheReason() throws Exception {
    deadLetter("doc-1");
    assertThat(door.list("acme", graph, null, null, null).letters())
        .singleElement()
        .satisfies(
            l -> {
              // The module answered without a body, so the stream names the document.
              assertThat(l.letter().streamId()).isEqualTo("s-doc-1");
              assertThat(l.letter().message().getNodeId()).isEqualTo("parse");
              assertThat(l.letter().message().getError().getCode())
                  .isEqualTo(HopFailure.BAD_PAYLOAD);
              assertThat(l.quarantined()).isEmpty();
            });

    for (int attempt = 1; attempt <= 3; attempt++) {
      DeadLetterAdmin.Listed latest = latest();
      assertThat(latest.letter().message().getReprocessCount()).isEqualTo(attempt - 1);
      List<DeadLetterAdmin.Outcome> outcomes =
          door.reprocess("acme", graph, latest.letter().message().getDlqId(), null);
      assertThat(outcomes)
          .singleElement()
          .extracting(DeadLetterAdmin.Outcome::verdict)
          .isEqualTo(Verdict.REPROCESSED);
      // The reprocess execution starts at the failed node with the bodiless stream the letter
      // kept, so it dead-letters again by itself, one reprocess count higher.
      awaitLetters(attempt + 1);
    }

    DeadLetterAdmin.Listed capped = latest();
    assertThat(capped.letter().message().getReprocessCount()).isEqualTo(3);
    List<DeadLetterAdmin.Outcome> outcomes =
        door.reprocess("acme", graph, capped.letter().message().getDlqId(), null);
    assertThat(outcomes)
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.verdict()).isEqualTo(Verdict.QUARANTINED);
              assertThat(o.detail())
                  .isEqualTo(
                      "reprocessed 3 times, the cap of node 'parse' is 3; fix the cause and"
                          + " replay the document");
            });
    assertThat(door.show("acme", graph, capped.letter().message().getDlqId()).quarantined())
        .contains(outcomes.getFirst().detail());
    // Quarantined letters are never re-driven: asking again starts nothing and says so.
    assertThat(door.reprocess("acme", graph, capped.letter().message().getDlqId(), null))
        .singleElement()
        .extracting(DeadLetterAdmin.Outcome::verdict)
        .isEqualTo(Verdict.ALREADY_QUARANTINED);
    String version = h.store.get(graph, 1).orElseThrow().stateMachineVersionArn();
    assertThat(h.sfn.listExecutions(b -> b.stateMachineArn(version)).executions())
        .as("the first execution and three reprocesses; the quarantine started none")
        .hasSize(4);
  }

  @Test
  void listPagesThroughTheTopic() throws Exception {
    deadLetter("doc-1");
    deadLetter("doc-2");
    DeadLetterAdmin.ListPage first = door.list("acme", graph, "parse", null, 1);
    assertThat(first.letters()).hasSize(1);
    assertThat(first.nextPageToken()).isPresent();
    DeadLetterAdmin.ListPage second =
        door.list("acme", graph, "parse", first.nextPageToken().get(), 1);
    assertThat(second.letters()).hasSize(1);
    assertThat(second.nextPageToken()).isEmpty();
    assertThat(
            List.of(
                first.letters().getFirst().letter().streamId(),
                second.letters().getFirst().letter().streamId()))
        .containsExactlyInAnyOrder("s-doc-1", "s-doc-2");
  }

  @Test
  void badRequestsAreRefusedNamingTheField() throws Exception {
    deadLetter("doc-1");
    assertRefused(() -> door.show("acme", graph, "no-such-letter"), "dlqId");
    assertRefused(() -> door.reprocess("acme", graph, "no-such-letter", null), "dlqId");
    assertRefused(() -> door.list("someone-else", graph, null, null, null), "accountId");
    String id = latest().letter().message().getDlqId();
    assertRefused(() -> door.reprocess("someone-else", graph, id, null), "accountId");
    assertRefused(() -> door.list("acme", "no-such-graph", null, null, null), "graphId");
    assertRefused(() -> door.list("acme", graph, "no-such-node", null, null), "nodeId");
    assertRefused(() -> door.list("acme", graph, null, "garbage!", null), "pageToken");
    assertRefused(() -> door.list("acme", graph, null, null, 0), "limit");
    assertRefused(() -> door.list("", graph, null, null, null), "accountId");
    // Nothing was reprocessed by any of them.
    assertThat(latest().letter().message().getReprocessCount()).isZero();
    assertThat(door.list("acme", graph, null, null, null).letters()).hasSize(1);
  }

  private static void assertRefused(Runnable call, String field) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            DeadLetterRefused.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageStartingWith(field + ": ");
  }

  private DeadLetterAdmin.Listed latest() {
    return door.list("acme", graph, null, null, null).letters().getLast();
  }

  /** Admits a document whose parse answer carries no body, so its hop dead-letters. */
  private void deadLetter(String docId) throws Exception {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en"))
            .build();
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                "ds-1",
                docId,
                PipeStream.newBuilder().setStreamId("s-" + docId).setDocument(doc).build()));
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream().toBuilder().clearDocumentRef().build());
    h.awaitClosed(admitted.getFirst().executionArn());
    awaitLetters(h.events.on(topic).size());
  }

  /** Forwards the recorded DLQ records to the broker until {@code count} have been published. */
  private void awaitLetters(int count) throws Exception {
    dev.protomolt.testsupport.Eventually.until(
        count + " dead letters published", () -> h.events.on(topic).size() >= count);
    List<RecordingEventBus.Produced> recorded = h.events.on(topic);
    for (; forwarded < recorded.size(); forwarded++) {
      RecordingEventBus.Produced r = recorded.get(forwarded);
      producer.send(new ProducerRecord<>(topic, r.key(), r.value())).get(30, TimeUnit.SECONDS);
    }
  }
}
