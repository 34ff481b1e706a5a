package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.metrics.MetricRecord;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backlog signals a gateway task emits per module service (decision 1653), read back from a
 * recording sink: a Kafka source over an in-process KRaft broker, the Work service on a real
 * socket, and a module stream driven from the test. Record timestamps and the gateway clock are
 * set, so every age and latency is an exact figure.
 */
class BacklogSignalsTest {

  static final String MODULE = "signals";
  static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  @TempDir static Path data;

  static LocalKafka kafka;
  static Admin admin;
  static KafkaProducer<String, byte[]> producer;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    admin
        .createTopics(List.of(new NewTopic(KafkaWorkSource.topic(MODULE), 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    Eventually.until(
        "a leader for " + KafkaWorkSource.topic(MODULE),
        () ->
            producer.partitionsFor(KafkaWorkSource.topic(MODULE)).stream()
                .allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty()));
  }

  @AfterAll
  static void stopKafka() {
    producer.close();
    admin.close();
    kafka.close();
  }

  @Test
  void queuedOldestAgeStreamsInFlightAndAckLatencyAreEmittedPerModuleService() throws Exception {
    for (int i = 0; i < 3; i++) {
      // Dispatched 90, 60 and 30 seconds before the gateway's now.
      produce("wu-" + i, T0.minusSeconds(90 - 30L * i));
    }
    ManualGatewayClock clock = new ManualGatewayClock(T0);
    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    // One record per partition buffered: the other two wait in Kafka past the fetch position.
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-signals", List.of(MODULE), 1)) {
      ModuleWorkGateway gateway =
          new ModuleWorkGateway(
              source,
              sfn,
              WorkScreen.allOf(),
              new InlineWorkDocuments(),
              clock,
              GatewaySettings.defaults());
      BacklogSignals signals =
          new BacklogSignals(
              source::queue,
              gateway.activity(),
              new ModuleBacklog(admin, "g-signals", List.of(MODULE), Duration.ofSeconds(30)),
              List.of(MODULE),
              clock);
      Server server =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .addService(gateway)
              .build()
              .start();
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
      try {
        Eventually.until("the first record buffered", () -> source.buffered(MODULE) == 1);

        RecordingMetricsSink before = new RecordingMetricsSink("dev");
        signals.report(before);
        assertThat(value(before, PlatformMetric.MODULE_QUEUED_RECORDS)).isEqualTo(3);
        assertThat(value(before, PlatformMetric.MODULE_OLDEST_QUEUED_AGE)).isEqualTo(90);
        assertThat(value(before, PlatformMetric.MODULE_STREAMS_OPEN)).isZero();
        assertThat(value(before, PlatformMetric.MODULE_UNITS_IN_FLIGHT)).isZero();
        assertThat(before.records(PlatformMetric.MODULE_ACK_LATENCY)).as("no ack yet").isEmpty();
        assertThat(taskBacklog(before)).isEqualTo(3);
        assertThat(before.records(PlatformMetric.MODULE_TOPIC_BACKLOG))
            .as("the group's lag goes out beside them")
            .isNotEmpty();

        // A module takes the oldest unit and holds it; the next record is buffered in its place.
        ClientStream worker = new ClientStream(ModuleWorkServiceGrpc.newStub(channel));
        worker.hello(MODULE);
        Eventually.until("a unit served", () -> !worker.responses.isEmpty());
        assertThat(worker.responses.getFirst().getWorkUnit().getWorkUnitId()).isEqualTo("wu-0");
        Eventually.until("the next record buffered", () -> source.buffered(MODULE) == 1);

        RecordingMetricsSink serving = new RecordingMetricsSink("dev");
        signals.report(serving);
        assertThat(value(serving, PlatformMetric.MODULE_QUEUED_RECORDS)).isEqualTo(2);
        assertThat(value(serving, PlatformMetric.MODULE_OLDEST_QUEUED_AGE)).isEqualTo(60);
        assertThat(value(serving, PlatformMetric.MODULE_STREAMS_OPEN)).isEqualTo(1);
        assertThat(value(serving, PlatformMetric.MODULE_UNITS_IN_FLIGHT)).isEqualTo(1);
        assertThat(taskBacklog(serving)).as("queued plus in flight").isEqualTo(3);

        // It acks 1.5 s (gateway time) after it was served.
        clock.advance(Duration.ofMillis(1500));
        worker.send(
            WorkRequest.newBuilder()
                .setAck(
                    WorkAck.newBuilder()
                        .setWorkUnitId("wu-0")
                        .setNoOp(NoOpResult.getDefaultInstance()))
                .build());
        Eventually.until("the ack confirmed", () -> worker.completed);
        assertThat(sfn.calls("success"))
            .singleElement()
            .extracting(c -> c.token())
            .isEqualTo("token-wu-0");

        RecordingMetricsSink acked = new RecordingMetricsSink("dev");
        signals.report(acked);
        assertThat(value(acked, PlatformMetric.MODULE_ACK_LATENCY)).isEqualTo(1500);
        assertThat(value(acked, PlatformMetric.MODULE_STREAMS_OPEN)).isZero();
        assertThat(value(acked, PlatformMetric.MODULE_UNITS_IN_FLIGHT)).isZero();
        assertThat(value(acked, PlatformMetric.MODULE_QUEUED_RECORDS)).isEqualTo(2);
        assertThat(taskBacklog(acked)).isEqualTo(2);

        RecordingMetricsSink quiet = new RecordingMetricsSink("dev");
        signals.report(quiet);
        assertThat(quiet.records(PlatformMetric.MODULE_ACK_LATENCY))
            .as("a minute without an ack has no latency figure")
            .isEmpty();
      } finally {
        channel.shutdownNow();
        server.shutdownNow();
      }
    }
  }

  /** The module service's value of {@code metric} in one report. */
  private static double value(RecordingMetricsSink sink, PlatformMetric metric) {
    List<MetricRecord> mine =
        sink.records(metric).stream()
            .filter(r -> MODULE.equals(r.dimensions().get(PlatformMetric.MODULE_SERVICE_DIMENSION)))
            .toList();
    assertThat(mine).as(metric.metricName() + " for " + MODULE).hasSize(1);
    return mine.getFirst().value();
  }

  /** The task's one backlog value, emitted with the environment dimension only. */
  private static double taskBacklog(RecordingMetricsSink sink) {
    List<MetricRecord> task = sink.records(PlatformMetric.GATEWAY_TASK_BACKLOG);
    assertThat(task).singleElement().satisfies(r -> assertThat(r.dimensions()).hasSize(1));
    return task.getFirst().value();
  }

  private static void produce(String unit, Instant at) throws Exception {
    WorkDispatch d =
        WorkDispatch.newBuilder()
            .setWorkUnitId(unit)
            .setTaskToken("token-" + unit)
            .setModuleId(MODULE)
            .setNodeId("n")
            .setGraphId("g")
            .setGraphVersion(1)
            .setHeartbeatSeconds(20)
            .setStream(
                PipeStream.newBuilder()
                    .setStreamId("s-" + unit)
                    .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
                    .setDocument(PipeDoc.newBuilder().setDocId("d-" + unit)))
            .build();
    producer
        .send(
            new ProducerRecord<>(
                KafkaWorkSource.topic(MODULE), 0, at.toEpochMilli(), unit, d.toByteArray()))
        .get(30, TimeUnit.SECONDS);
  }
}
