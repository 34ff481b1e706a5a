package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.metrics.MetricRecord;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.GetModuleBacklogRequest;
import dev.protomolt.proto.module.v1.GetModuleBacklogResponse;
import dev.protomolt.proto.module.v1.GraphNodeBacklog;
import dev.protomolt.proto.module.v1.ModuleBacklogServiceGrpc;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
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
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
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
 * recording sink, and the per graph node figures its backlog door answers (decision 1659): a
 * Kafka source over an in-process KRaft broker, the Work service and the door on a real socket,
 * and module streams driven from the test. Record timestamps and the gateway clock are set, so
 * every age and latency is an exact figure.
 */
class BacklogSignalsTest {

  static final String MODULE = "signals";
  static final String NODES_MODULE = "nodes";
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
        .createTopics(
            List.of(
                new NewTopic(KafkaWorkSource.topic(MODULE), 1, (short) 1),
                new NewTopic(KafkaWorkSource.topic(NODES_MODULE), 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    for (String module : List.of(MODULE, NODES_MODULE)) {
      Eventually.until(
          "a leader for " + KafkaWorkSource.topic(module),
          () ->
              producer.partitionsFor(KafkaWorkSource.topic(module)).stream()
                  .allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty()));
    }
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

  @Test
  void theDoorCountsQueuedInFlightAndSettledHopsPerGraphNode() throws Exception {
    // Graph g's parse and chunk nodes and graphs h's and x's parse nodes share the module service.
    // h's one record passed its deadline while it waited (its queue time to live ran out); x's
    // graph version was deleted meanwhile. Dead letters are read off each node's topic, where the
    // compiled machine's DLQ hop writes them, whichever path led there.
    produce(NODES_MODULE, "wu-p1", "g", "parse", T0.minusSeconds(40), Optional.empty());
    produce(NODES_MODULE, "wu-c1", "g", "chunk", T0.minusSeconds(50), Optional.empty());
    produce(NODES_MODULE, "wu-p2", "g", "parse", T0.minusSeconds(30), Optional.empty());
    produce(
        NODES_MODULE, "wu-h1", "h", "parse", T0.minusSeconds(10), Optional.of(T0.minusSeconds(1)));
    produce(NODES_MODULE, "wu-p3", "g", "parse", T0.minusSeconds(20), Optional.empty());
    produce(NODES_MODULE, "wu-x1", "x", "parse", T0.minusSeconds(5), Optional.empty());
    ManualGatewayClock clock = new ManualGatewayClock(T0);
    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-nodes", List.of(NODES_MODULE), 100)) {
      ModuleWorkGateway gateway =
          new ModuleWorkGateway(
              source,
              sfn,
              WorkScreen.allOf(
                  new DeadlineScreen(clock),
                  new DeadGraphScreen(
                      (graph, version) -> !graph.equals("x"), Duration.ofSeconds(30))),
              new InlineWorkDocuments(),
              clock,
              GatewaySettings.defaults());
      ModuleBacklog lag =
          new ModuleBacklog(admin, "g-nodes", List.of(NODES_MODULE), Duration.ofSeconds(30));
      BacklogSignals signals =
          new BacklogSignals(source::queue, gateway.activity(), lag, List.of(NODES_MODULE), clock);
      Server server =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .addService(gateway)
              .addService(
                  new ModuleBacklogGrpcService(
                      signals,
                      lag,
                      Map::of,
                      (graph, node) -> lag.recordsOn(Set.of(dlqTopic(graph, node)))))
              .build()
              .start();
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
      var door = ModuleBacklogServiceGrpc.newBlockingStub(channel);
      var work = ModuleWorkServiceGrpc.newStub(channel);
      try {
        Eventually.until("every record buffered", () -> source.buffered(NODES_MODULE) == 6);

        GetModuleBacklogResponse queued = door.getModuleBacklog(request());
        assertThat(queued.getCountedSince().getSeconds()).isEqualTo(T0.getEpochSecond());
        assertThat(rows(queued))
            .as("graph, node, module, queued, oldest s, in flight, done, rejected, retried, dlq")
            .containsExactly(
                "g chunk nodes 1 50 0 0 0 0 0",
                "g parse nodes 3 40 0 0 0 0 0",
                "h parse nodes 1 10 0 0 0 0 0",
                "x parse nodes 1 5 0 0 0 0 0");

        // Graphs take turns inside the account (decision 1658): g's first record is served first.
        ClientStream first = serve("wu-p1", work);
        GetModuleBacklogResponse holding = door.getModuleBacklog(request());
        assertThat(rows(holding))
            .containsExactly(
                "g chunk nodes 1 50 0 0 0 0 0",
                "g parse nodes 2 30 1 0 0 0 0",
                "h parse nodes 1 10 0 0 0 0 0",
                "x parse nodes 1 5 0 0 0 0 0");
        ack(
            first,
            WorkAck.newBuilder().setWorkUnitId("wu-p1").setNoOp(NoOpResult.getDefaultInstance()));

        // h's and x's turns: their records are drained unserved, and g's next record is served.
        ClientStream second = serve("wu-c1", work);
        ack(
            second,
            WorkAck.newBuilder()
                .setWorkUnitId("wu-c1")
                .setReject(
                    Reject.newBuilder()
                        .setReason(RejectReason.REJECT_REASON_INVALID_INPUT)
                        .setDetail("not a document this module reads")));
        ClientStream third = serve("wu-p2", work);
        ack(
            third,
            WorkAck.newBuilder()
                .setWorkUnitId("wu-p2")
                .setRetryableFailure(
                    RetryableFailure.newBuilder()
                        .setReason(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY)
                        .setDetail("the dictionary is warming up")));
        serve("wu-p3", work);

        assertThat(sfn.calls("success")).hasSize(1);
        assertThat(sfn.calls("failure")).hasSize(2);
        // What the DLQ hops write once the machine gives up: g's parse twice (the retried hop past
        // its last attempt, and one before), h's expired record once; x's has no topic yet.
        deadLetters(dlqTopic("g", "parse"), 2);
        deadLetters(dlqTopic("h", "parse"), 1);
        GetModuleBacklogResponse settled = door.getModuleBacklog(request());
        assertThat(rows(settled))
            .containsExactly(
                "g chunk nodes 0 0 0 0 1 0 0",
                "g parse nodes 0 0 1 1 0 1 2",
                "h parse nodes 0 0 0 0 0 0 1",
                "x parse nodes 0 0 0 0 0 0 0");
        assertThat(settled.getModuleServicesList())
            .singleElement()
            .satisfies(
                m -> {
                  assertThat(m.getQueued()).isZero();
                  assertThat(m.getUnitsInFlight()).isEqualTo(1);
                });
      } finally {
        channel.shutdownNow();
        server.shutdownNow();
      }
    }
  }

  private static String dlqTopic(String graph, String node) {
    return EventBus.dlqTopic("c", graph, node);
  }

  /** {@code letters} records on a new dead-letter {@code topic}. */
  private static void deadLetters(String topic, int letters) throws Exception {
    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    for (int i = 0; i < letters; i++) {
      producer
          .send(new ProducerRecord<>(topic, 0, "l" + i, new byte[] {1}))
          .get(30, TimeUnit.SECONDS);
    }
  }

  private static GetModuleBacklogRequest request() {
    return GetModuleBacklogRequest.getDefaultInstance();
  }

  /** Each graph node row as one line of its figures, in the door's order. */
  private static List<String> rows(GetModuleBacklogResponse backlog) {
    return backlog.getGraphNodesList().stream()
        .map(
            (GraphNodeBacklog n) ->
                String.join(
                    " ",
                    n.getGraphId(),
                    n.getNodeId(),
                    n.getModuleId(),
                    Long.toString(n.getQueued()),
                    Long.toString(n.getOldestQueuedAgeSeconds()),
                    Long.toString(n.getUnitsInFlight()),
                    Long.toString(n.getDone()),
                    Long.toString(n.getRejected()),
                    Long.toString(n.getRetried()),
                    Long.toString(n.getDeadLettered())))
        .toList();
  }

  /** A module stream of the nodes' service that says Hello and is served {@code unit}. */
  private static ClientStream serve(String unit, ModuleWorkServiceGrpc.ModuleWorkServiceStub work) {
    ClientStream worker = new ClientStream(work);
    worker.hello(NODES_MODULE);
    Eventually.until(unit + " served", () -> !worker.responses.isEmpty());
    assertThat(worker.responses.getFirst().getWorkUnit().getWorkUnitId()).isEqualTo(unit);
    return worker;
  }

  private static void ack(ClientStream worker, WorkAck.Builder ack) {
    worker.send(WorkRequest.newBuilder().setAck(ack).build());
    Eventually.until("the ack of " + ack.getWorkUnitId() + " confirmed", () -> worker.completed);
    assertThat(worker.last().getAckConfirmed().getAccepted()).isTrue();
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
    produce(MODULE, unit, "g", "n", at, Optional.empty());
  }

  private static void produce(
      String module, String unit, String graph, String node, Instant at, Optional<Instant> deadline)
      throws Exception {
    WorkDispatch.Builder d =
        WorkDispatch.newBuilder()
            .setWorkUnitId(unit)
            .setTaskToken("token-" + unit)
            .setModuleId(module)
            .setNodeId(node)
            .setGraphId(graph)
            .setGraphVersion(1)
            .setHeartbeatSeconds(20)
            .setStream(
                PipeStream.newBuilder()
                    .setStreamId("s-" + unit)
                    .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
                    .setDocument(PipeDoc.newBuilder().setDocId("d-" + unit)));
    deadline.ifPresent(t -> d.setDeadline(Timestamp.newBuilder().setSeconds(t.getEpochSecond())));
    producer
        .send(
            new ProducerRecord<>(
                KafkaWorkSource.topic(module), 0, at.toEpochMilli(), unit, d.build().toByteArray()))
        .get(30, TimeUnit.SECONDS);
  }
}
