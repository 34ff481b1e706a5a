package dev.protomolt.localstack.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MSK poller against the in-process KRaft broker, polled in the test's thread. Semantics
 * reproduced from "Using Lambda with Amazon MSK": the event groups records under
 * "topic-partition" with base64 key and value; offsets are committed only after the function
 * returns, and a batch whose function fails is retried.
 */
class MskPollerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofSeconds(10);

  @TempDir static Path data;
  private static LocalKafka kafka;
  private static KafkaProducer<byte[], byte[]> producer;
  private static Admin admin;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() {
    admin.close();
    producer.close();
    kafka.close();
  }

  private final LocalLambdaRunner lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
  private final List<Duration> pauses = new ArrayList<>();

  private static void produce(String topic, String key, String value) throws Exception {
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            topic,
            key == null ? null : key.getBytes(StandardCharsets.UTF_8),
            value.getBytes(StandardCharsets.UTF_8));
    record.headers().add("kind", "receipt".getBytes(StandardCharsets.UTF_8));
    producer.send(record).get();
  }

  private MskPoller poller(String function, String topic) {
    return poller(function, topic, 100, MskEventSourceMapping.DEFAULT_BATCHING_WINDOW);
  }

  private MskPoller poller(String function, String topic, int batchSize, Duration window) {
    return new MskPoller(
        new MskEventSourceMapping(function, List.of(topic), null, batchSize, window),
        kafka.bootstrapServers(),
        "us-east-1",
        lambdas,
        pauses::add,
        Duration.ofSeconds(1));
  }

  private static long committed(String group, String topic) throws Exception {
    OffsetAndMetadata offset =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get()
            .get(new TopicPartition(topic, 0));
    return offset == null ? 0L : offset.offset();
  }

  private static MskPoller.PollOutcome pollUntilRecords(MskPoller poller) throws Exception {
    // The first polls only join the group; records arrive once partitions are assigned.
    for (int i = 0; i < 60; i++) {
      MskPoller.PollOutcome outcome = poller.pollOnce(Duration.ofMillis(500));
      if (outcome != MskPoller.PollOutcome.EMPTY) {
        return outcome;
      }
    }
    return MskPoller.PollOutcome.EMPTY;
  }

  @Test
  void deliversAKafkaEventShapedAsMskSendsIt() throws Exception {
    produce("purge-events", "doc-1", "hello");
    produce("purge-events", null, "no key");
    List<JsonNode> events = new ArrayList<>();
    lambdas.register(
        "purge",
        (event, context) -> {
          events.add(JSON.readTree(event));
          return "{}";
        });

    try (MskPoller poller = poller("purge", "purge-events")) {
      assertThat(pollUntilRecords(poller)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
    }

    JsonNode event = events.getFirst();
    assertThat(event.get("eventSource").asText()).isEqualTo("aws:kafka");
    assertThat(event.get("eventSourceArn").asText()).startsWith("arn:aws:kafka:us-east-1:");
    assertThat(event.get("bootstrapServers").asText()).isEqualTo(kafka.bootstrapServers());
    JsonNode records = event.get("records").get("purge-events-0");
    assertThat(records).hasSize(2);
    JsonNode first = records.get(0);
    assertThat(first.get("topic").asText()).isEqualTo("purge-events");
    assertThat(first.get("partition").asInt()).isZero();
    assertThat(first.get("offset").asLong()).isZero();
    assertThat(first.get("timestampType").asText()).isEqualTo("CREATE_TIME");
    assertThat(
            new String(
                Base64.getDecoder().decode(first.get("key").asText()), StandardCharsets.UTF_8))
        .isEqualTo("doc-1");
    assertThat(
            new String(
                Base64.getDecoder().decode(first.get("value").asText()), StandardCharsets.UTF_8))
        .isEqualTo("hello");
    JsonNode header = first.get("headers").get(0).get("kind");
    byte[] headerBytes = new byte[header.size()];
    for (int i = 0; i < header.size(); i++) {
      headerBytes[i] = (byte) header.get(i).asInt();
    }
    assertThat(new String(headerBytes, StandardCharsets.UTF_8)).isEqualTo("receipt");
    assertThat(records.get(1).has("key")).as("a null key is left out").isFalse();
  }

  /** Each invocation's offsets on partition 0 of {@code topic}, in the order they came. */
  private void recordOffsets(String function, String topic, List<List<Long>> seen) {
    lambdas.register(
        function,
        (event, context) -> {
          List<Long> offsets = new ArrayList<>();
          JSON.readTree(event)
              .get("records")
              .get(topic + "-0")
              .forEach(r -> offsets.add(r.get("offset").asLong()));
          seen.add(offsets);
          return "{}";
        });
  }

  @Test
  void aRecordArrivingWithinTheBatchingWindowJoinsTheBatchOfTheOneBeforeIt() throws Exception {
    produce("window-events", "a", "early");
    List<List<Long>> seen = new ArrayList<>();
    recordOffsets("window", "window-events", seen);
    // A window far longer than the test: the batch is delivered because it is full, not late.
    try (MskPoller poller = poller("window", "window-events", 2, Duration.ofSeconds(120))) {
      Thread late =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      Thread.sleep(1_000);
                      produce("window-events", "b", "late");
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  });
      assertThat(pollUntilRecords(poller)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
      late.join();
    }

    assertThat(seen).as("one invocation for both records").containsExactly(List.of(0L, 1L));
  }

  @Test
  void aBatchHoldsNoMoreThanItsSizeAndTheRestGoesInTheNext() throws Exception {
    produce("sized-events", "a", "1");
    produce("sized-events", "b", "2");
    produce("sized-events", "c", "3");
    List<List<Long>> seen = new ArrayList<>();
    recordOffsets("sized", "sized-events", seen);
    MskPoller poller = poller("sized", "sized-events", 2, Duration.ofSeconds(1));
    String group = poller.mapping().consumerGroupId();

    try (poller) {
      assertThat(pollUntilRecords(poller)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
      assertThat(poller.pollOnce(POLL)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
    }

    assertThat(seen).containsExactly(List.of(0L, 1L), List.of(2L));
    assertThat(committed(group, "sized-events")).isEqualTo(3L);
  }

  @Test
  void commitsOnlyAfterTheFunctionReturns() throws Exception {
    produce("ledger-events", "a", "1");
    produce("ledger-events", "b", "2");
    MskPoller poller = poller("ledger", "ledger-events");
    String group = poller.mapping().consumerGroupId();
    List<Long> committedWhileRunning = new ArrayList<>();
    lambdas.register(
        "ledger",
        (event, context) -> {
          committedWhileRunning.add(committed(group, "ledger-events"));
          return "{}";
        });

    try (poller) {
      assertThat(pollUntilRecords(poller)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
    }

    assertThat(committedWhileRunning).containsExactly(0L);
    assertThat(committed(group, "ledger-events")).isEqualTo(2L);
  }

  @Test
  void aBatchWhoseFunctionThrowsIsNotCommittedAndComesAgain() throws Exception {
    produce("reclaim-events", "x", "first");
    produce("reclaim-events", "y", "second");
    AtomicInteger calls = new AtomicInteger();
    List<List<Long>> offsetsSeen = new ArrayList<>();
    lambdas.register(
        "reclaim",
        (event, context) -> {
          List<Long> offsets = new ArrayList<>();
          JSON.readTree(event)
              .get("records")
              .get("reclaim-events-0")
              .forEach(r -> offsets.add(r.get("offset").asLong()));
          offsetsSeen.add(offsets);
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("ledger unavailable");
          }
          return "{}";
        });
    MskPoller poller = poller("reclaim", "reclaim-events");
    String group = poller.mapping().consumerGroupId();

    try (poller) {
      assertThat(pollUntilRecords(poller)).isEqualTo(MskPoller.PollOutcome.FAILED_WILL_RETRY);
      assertThat(committed(group, "reclaim-events")).isZero();
      assertThat(poller.pollOnce(POLL)).isEqualTo(MskPoller.PollOutcome.DELIVERED);
    }

    assertThat(offsetsSeen).containsExactly(List.of(0L, 1L), List.of(0L, 1L));
    assertThat(pauses).containsExactly(Duration.ofSeconds(1));
    assertThat(committed(group, "reclaim-events")).isEqualTo(2L);
  }

  @Test
  void aNewPollerOnTheSameGroupResumesAfterTheLastCommit() throws Exception {
    produce("settle-events", "k", "one");
    List<String> values = new ArrayList<>();
    lambdas.register(
        "settle",
        (event, context) -> {
          JSON.readTree(event)
              .get("records")
              .get("settle-events-0")
              .forEach(
                  r ->
                      values.add(
                          new String(
                              Base64.getDecoder().decode(r.get("value").asText()),
                              StandardCharsets.UTF_8)));
          return "{}";
        });
    try (MskPoller poller = poller("settle", "settle-events")) {
      pollUntilRecords(poller);
    }
    produce("settle-events", "k", "two");

    try (MskPoller poller = poller("settle", "settle-events")) {
      pollUntilRecords(poller);
    }

    assertThat(values).containsExactly("one", "two");
  }
}
