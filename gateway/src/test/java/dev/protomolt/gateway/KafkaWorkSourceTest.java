package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka source against an in-process KRaft broker. */
class KafkaWorkSourceTest {

  @TempDir static Path data;

  static LocalKafka kafka;
  static Admin admin;
  static KafkaProducer<String, byte[]> producer;

  /** Keys of the records {@link #awaitAConsumerTurn} produces. */
  static final String MARKER = "marker-";

  static int markers;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    // One batch in flight per partition: with several, a retry after NOT_LEADER_OR_FOLLOWER on a
    // loaded machine was refused OUT_OF_ORDER_SEQUENCE_NUMBER forever and the backlog never landed.
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  @AfterAll
  static void stopKafka() {
    producer.close();
    admin.close();
    kafka.close();
  }

  static void createTopic(String module, int partitions) throws Exception {
    admin
        .createTopics(List.of(new NewTopic(KafkaWorkSource.topic(module), partitions, (short) 1)))
        .all()
        .get();
    // A produce racing the new partitions' leadership fails NOT_LEADER_OR_FOLLOWER, and the
    // idempotent producer's retry can then be refused out of sequence, losing records: wait until
    // the producer's own metadata names a leader for every partition.
    Eventually.until(
        "a leader for every partition of " + KafkaWorkSource.topic(module),
        () -> {
          var known = producer.partitionsFor(KafkaWorkSource.topic(module));
          return known.size() == partitions
              && known.stream().allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty());
        });
  }

  static void produce(String module, int partition, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      producer
          .send(
              new ProducerRecord<>(
                  KafkaWorkSource.topic(module),
                  partition,
                  module + "-" + partition + "-" + i,
                  ("payload " + i).getBytes(StandardCharsets.UTF_8)))
          .get();
    }
  }

  /**
   * Returns once the source's consumer has run a whole turn (commit, pause or resume, poll) that
   * began after this call, so whatever that turn would have done with the state before the call
   * has been done. Two markers are produced to {@code partition} one after the other, the second
   * only once the first is buffered: the second can only be fetched on a later turn than the one
   * that fetched the first, and that later turn started after the first marker was produced.
   */
  static void awaitAConsumerTurn(KafkaWorkSource source, String module, int partition)
      throws Exception {
    for (int i = 0; i < 2; i++) {
      int before = source.buffered(module, partition);
      producer
          .send(
              new ProducerRecord<>(
                  KafkaWorkSource.topic(module), partition, MARKER + markers++, new byte[0]))
          .get();
      Eventually.until(
          "marker " + i + " buffered on " + module + "-" + partition,
          () -> source.buffered(module, partition) == before + 1);
    }
  }

  static long committed(String group, String module, int partition) throws Exception {
    OffsetAndMetadata o =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get()
            .get(new TopicPartition(KafkaWorkSource.topic(module), partition));
    return o == null ? -1 : o.offset();
  }

  static PendingWork pop(KafkaWorkSource source, String module) {
    Optional<PendingWork> w = source.poll(module);
    assertThat(w).as("a buffered record").isPresent();
    return w.get();
  }

  @Test
  void offsetsAreCommittedOnlyUpToTheFirstUnsettledRecord() throws Exception {
    createTopic("commit", 1);
    produce("commit", 0, 5);
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-commit", List.of("commit"), 100)) {
      Eventually.until("five records buffered", () -> source.buffered("commit") == 5);
      PendingWork w0 = pop(source, "commit");
      PendingWork w1 = pop(source, "commit");
      PendingWork w2 = pop(source, "commit");
      assertThat(List.of(w0.key(), w1.key(), w2.key()))
          .containsExactly("commit-0-0", "commit-0-1", "commit-0-2");

      source.settle(w1);
      source.settle(w2);
      // A turn after the settlements would commit past offset 0 if it committed settled records
      // regardless of the first unsettled one.
      awaitAConsumerTurn(source, "commit", 0);
      assertThat(committed("g-commit", "commit", 0))
          .as("offset 0 is still in flight")
          .isLessThanOrEqualTo(0);
      assertThat(source.committed("commit", 0)).isLessThanOrEqualTo(0);

      source.settle(w0);
      Eventually.until("commit reaches 3", () -> source.committed("commit", 0) == 3);
      assertThat(committed("g-commit", "commit", 0)).isEqualTo(3);
    }
  }

  @Test
  void aRebufferedRecordIsServedNextAndAClosedSourceRedeliversEveryUnsettledRecord()
      throws Exception {
    createTopic("redeliver", 1);
    produce("redeliver", 0, 3);
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-redeliver", List.of("redeliver"), 100)) {
      Eventually.until("three records buffered", () -> source.buffered("redeliver") == 3);
      PendingWork first = pop(source, "redeliver");
      source.rebuffer(first);
      PendingWork again = pop(source, "redeliver");
      assertThat(again.key()).isEqualTo("redeliver-0-0");
      source.settle(again);
      Eventually.until("commit reaches 1", () -> source.committed("redeliver", 0) == 1);
      pop(source, "redeliver");
      // Offset 1 popped but never settled: the gateway "crashes" here.
    }
    try (KafkaWorkSource restarted =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-redeliver", List.of("redeliver"), 100)) {
      Eventually.until("the unsettled records return", () -> restarted.buffered("redeliver") == 2);
      assertThat(pop(restarted, "redeliver").key()).isEqualTo("redeliver-0-1");
    }
  }

  /** A dispatch record of {@code account}'s document, keyed and numbered by {@code key}. */
  static ProducerRecord<String, byte[]> dispatchOf(String module, String account, String key) {
    WorkDispatch dispatch =
        WorkDispatch.newBuilder()
            .setWorkUnitId(key)
            .setStream(
                PipeStream.newBuilder()
                    .setStreamId(key)
                    .setMetadata(StreamMetadata.newBuilder().setAccountId(account)))
            .build();
    return new ProducerRecord<>(KafkaWorkSource.topic(module), key, dispatch.toByteArray());
  }

  @Test
  void anotherAccountsFewRecordsAreServedBetweenOneAccountsBacklog() throws Exception {
    // The scenario at the gateway's buffer: A queues 5,000 documents, then B 20, with no
    // module pulling; then a module takes them one by one.
    createTopic("fair", 2);
    int backlog = 5_000;
    int few = 20;
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (int i = 0; i < backlog; i++) {
      sent.add(producer.send(dispatchOf("fair", "acct-a", "a-" + i)));
    }
    for (int i = 0; i < few; i++) {
      sent.add(producer.send(dispatchOf("fair", "acct-b", "b-" + i)));
    }
    for (Future<RecordMetadata> f : sent) {
      f.get(2, TimeUnit.MINUTES); // a record the broker refused fails here, not as a timeout below
    }
    try (KafkaWorkSource source =
        new KafkaWorkSource(
            kafka.bootstrapServers(),
            "g-fair",
            List.of("fair"),
            GatewayConfig.DEFAULT_PARTITION_CAPACITY)) {
      Eventually.until("every record buffered", () -> source.buffered("fair") == backlog + few);
      assertThat(source.bufferedFor("fair", "acct-b")).isEqualTo(few);

      List<String> served = serveAll(source, "fair");

      assertThat(served).hasSize(backlog + few).doesNotHaveDuplicates();
      List<Integer> bTurns = new ArrayList<>();
      for (int i = 0; i < served.size(); i++) {
        if (served.get(i).startsWith("b-")) {
          bTurns.add(i);
        }
      }
      // The bound (decision 1652): with two accounts waiting, B's j-th record (from 0) is served
      // at turn 2j + 1 at the latest; so all 20 go before A's 21st, far inside the 500.
      for (int j = 0; j < few; j++) {
        assertThat(bTurns.get(j)).as("turn of B's record %d", j).isLessThanOrEqualTo(2 * j + 1);
      }
      assertThat(served.indexOf("a-" + 499)).isGreaterThan(bTurns.getLast());
    }
  }

  /** Pops and settles every record the source serves now, in the order served: their keys. */
  static List<String> serveAll(KafkaWorkSource source, String module) {
    List<String> served = new ArrayList<>();
    for (Optional<PendingWork> w = source.poll(module); w.isPresent(); w = source.poll(module)) {
      served.add(w.get().key());
      source.settle(w.get());
    }
    return served;
  }

  /** Sends every record and waits for each, so a refused one fails here, not as a timeout. */
  static void sendAll(List<ProducerRecord<String, byte[]>> records) throws Exception {
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (ProducerRecord<String, byte[]> r : records) {
      sent.add(producer.send(r));
    }
    for (Future<RecordMetadata> f : sent) {
      f.get(2, TimeUnit.MINUTES);
    }
  }

  static List<ProducerRecord<String, byte[]>> dispatches(
      String module, String account, String prefix, int count) {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(dispatchOf(module, account, prefix + i));
    }
    return out;
  }

  static KafkaWorkSource sharedSource(
      String module, String group, String shares, GatewayClock clock) {
    return new KafkaWorkSource(
        kafka.bootstrapServers(),
        Map.of(),
        group,
        List.of(module),
        GatewayConfig.DEFAULT_PARTITION_CAPACITY,
        AccountShares.parse("PROTOMOLT_GATEWAY_ACCOUNT_SHARES", shares),
        clock);
  }

  @Test
  void weightedAccountsAreEachServedWithinTheWeightedBound() throws Exception {
    // A (weight 2) queues 1,000, then B (weight 3) 30 and C (not named: weight 1) 10.
    createTopic("weighted", 2);
    List<ProducerRecord<String, byte[]>> records =
        new ArrayList<>(dispatches("weighted", "acct-a", "a-", 1_000));
    records.addAll(dispatches("weighted", "acct-b", "b-", 30));
    records.addAll(dispatches("weighted", "acct-c", "c-", 10));
    sendAll(records);
    Map<String, Integer> weights = Map.of("a-", 2, "b-", 3, "c-", 1);
    try (KafkaWorkSource source =
        sharedSource(
            "weighted",
            "g-weighted",
            "acct-a=weight:2;acct-b=weight:3",
            new ManualGatewayClock(FairShareQueueTest.T0))) {
      Eventually.until("every record buffered", () -> source.buffered("weighted") == 1_040);

      List<String> served = serveAll(source, "weighted");

      assertThat(served).hasSize(1_040).doesNotHaveDuplicates();
      // The bound (decision 1658): an account of weight w, the others' weights summing to W,
      // has its j-th record (from 0) served by turn (⌊j/w⌋ + 1)·W + j.
      weights.forEach(
          (prefix, weight) -> {
            int others = 6 - weight;
            List<String> mine = served.stream().filter(k -> k.startsWith(prefix)).toList();
            for (int j = 0; j < Math.min(mine.size(), 100); j++) {
              assertThat(served.indexOf(mine.get(j)))
                  .as("turn of %s%d", prefix, j)
                  .isLessThanOrEqualTo((j / weight + 1) * others + j);
            }
          });
      // Ten turns of B (3 each) come with at most ten of A (2) and of C (1): B's 30 are done
      // within the first 60 records, long before A's 500th (the bar).
      assertThat(served.subList(0, 60)).filteredOn(k -> k.startsWith("b-")).hasSize(30);
      assertThat(served.subList(0, 60)).filteredOn(k -> k.startsWith("c-")).hasSize(10);
      assertThat(served.indexOf("a-499")).isGreaterThan(served.indexOf("b-29"));
    }
  }

  @Test
  void aRateLimitedAccountWaitsInTheBufferWithoutHoldingTheOthersBack() throws Exception {
    createTopic("limited", 1);
    sendAll(dispatches("limited", "acct-a", "a-", 12));
    sendAll(dispatches("limited", "acct-b", "b-", 8));
    ManualGatewayClock clock = new ManualGatewayClock(FairShareQueueTest.T0);
    try (KafkaWorkSource source = sharedSource("limited", "g-limited", "acct-a=rate:5", clock)) {
      Eventually.until("every record buffered", () -> source.buffered("limited") == 20);

      List<String> served = serveAll(source, "limited");
      // A's bucket holds one second's worth (5); B is served in full beside and after it.
      assertThat(served).filteredOn(k -> k.startsWith("a-")).hasSize(5);
      assertThat(served).filteredOn(k -> k.startsWith("b-")).hasSize(8);
      assertThat(source.bufferedFor("limited", "acct-a")).as("waiting, not dropped").isEqualTo(7);
      // The commit stops at A's first record still waiting: a crash would redeliver it.
      awaitAConsumerTurn(source, "limited", 0);
      assertThat(source.committed("limited", 0)).isEqualTo(5);
      for (int i = 0; i < 2; i++) {
        PendingWork marker = pop(source, "limited");
        assertThat(marker.key()).as("A is still out of tokens").startsWith(MARKER);
        source.settle(marker);
      }

      // A waiting Hello is woken when A's next token is due, not before.
      var arrival = source.arrival("limited");
      assertThat(arrival).isNotDone();
      clock.advance(Duration.ofMillis(199));
      assertThat(arrival).isNotDone();
      clock.advance(Duration.ofMillis(1));
      assertThat(arrival).isDone();
      assertThat(pop(source, "limited").key()).isEqualTo("a-5");
      assertThat(source.poll("limited")).isEmpty();

      clock.advance(Duration.ofSeconds(1));
      List<String> later = serveAll(source, "limited");
      assertThat(later).containsExactly("a-6", "a-7", "a-8", "a-9", "a-10");
    }
  }

  @Test
  void eachPartitionBuffersABoundedDequeAndEveryRecordStillArrives() throws Exception {
    // Partitions 0 and 1 carry the work; partition 2 carries the markers of a consumer turn.
    createTopic("bounded", 3);
    produce("bounded", 0, 12);
    produce("bounded", 1, 12);
    int capacity = 3;
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-bounded", List.of("bounded"), capacity)) {
      Eventually.until(
          "both partitions buffered",
          () ->
              source.buffered("bounded", 0) >= capacity
                  && source.buffered("bounded", 1) >= capacity);
      // Full deques pause their partitions; an unpaused one would be fetched again on this turn.
      awaitAConsumerTurn(source, "bounded", 2);
      // One poll may land up to max.poll.records on a deque just under its bound.
      assertThat(source.buffered("bounded", 0)).isLessThanOrEqualTo(2 * capacity - 1);
      assertThat(source.buffered("bounded", 1)).isLessThanOrEqualTo(2 * capacity - 1);

      List<String> seen = new ArrayList<>();
      Eventually.until(
          "all 24 served, and the two markers",
          () -> {
            Optional<PendingWork> w = source.poll("bounded");
            w.ifPresent(
                p -> {
                  seen.add(p.key());
                  source.settle(p);
                });
            return seen.size() == 26;
          });
      assertThat(seen).doesNotHaveDuplicates();
      assertThat(seen).filteredOn(k -> k.startsWith(MARKER)).hasSize(2);
      assertThat(seen.subList(0, 3))
          .as("partitions are served round-robin")
          .anyMatch(k -> k.startsWith("bounded-0"))
          .anyMatch(k -> k.startsWith("bounded-1"))
          .anyMatch(k -> k.startsWith(MARKER));
      Eventually.until(
          "every partition committed",
          () ->
              source.committed("bounded", 0) == 12
                  && source.committed("bounded", 1) == 12
                  && source.committed("bounded", 2) == 2);
    }
  }

  @Test
  void anArrivalWakesAWaitingHello() throws Exception {
    createTopic("wake", 1);
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-wake", List.of("wake"), 10)) {
      var arrival = source.arrival("wake");
      assertThat(arrival).isNotDone();
      produce("wake", 0, 1);
      arrival.get(30, TimeUnit.SECONDS);
      assertThat(pop(source, "wake").key()).isEqualTo("wake-0-0");
    }
  }
}
