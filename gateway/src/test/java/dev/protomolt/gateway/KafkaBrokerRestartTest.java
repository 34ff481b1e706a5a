package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process KRaft broker stops and starts again while the gateway holds a backlog (issue 17's
 * broker-restart fault): every record reaches the module exactly once, a record redelivered past a
 * commit the restart swallowed is screened as already settled, and the backlog drains.
 */
class KafkaBrokerRestartTest {

  static final String MODULE = "restart";
  static final int RECORDS = 40;

  @TempDir Path data;

  @Test
  void aBrokerRestartLosesNoRecordAndServesNoneTwice() throws Exception {
    Path log = data.resolve("kafka");
    LocalKafka kafka = LocalKafka.start(log, 0, 0);
    int port = kafka.port();
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(KafkaWorkSource.topic(MODULE), 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    produce(kafka.bootstrapServers());

    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    Map<String, Integer> servedTimes = new HashMap<>();
    ModuleWorkGateway gateway;
    try (KafkaWorkSource source =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-restart", List.of(MODULE), 10)) {
      gateway =
          new ModuleWorkGateway(
              source,
              sfn,
              WorkScreen.allOf(),
              new InlineWorkDocuments(),
              new ManualGatewayClock(Instant.parse("2026-03-01T12:00:00Z")),
              GatewaySettings.defaults());
      Server server =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .addService(gateway)
              .build()
              .start();
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
      try {
        // A module works through a quarter of the backlog, then the broker goes away and back.
        serveAndAck(channel, RECORDS / 4, servedTimes);
        kafka.close();
        kafka = LocalKafka.start(log, port, 0);
        serveAndAck(channel, RECORDS - RECORDS / 4, servedTimes);
      } finally {
        channel.shutdownNow();
        server.shutdownNow();
      }
    } finally {
      kafka.close();
    }

    assertThat(servedTimes).as("every record reached the module").hasSize(RECORDS);
    assertThat(servedTimes.values()).as("none reached it twice").containsOnly(1);
    assertThat(sfn.calls("success"))
        .extracting(RecordingTaskCompletion.Call::token)
        .as("each task token completed once")
        .doesNotHaveDuplicates()
        .hasSize(RECORDS);
    assertThat(gateway.counters().settledUnits()).isEqualTo(RECORDS);
  }

  /** One Work stream per unit: Hello, take the unit, ack it; {@code count} units in all. */
  private static void serveAndAck(ManagedChannel channel, int count, Map<String, Integer> served) {
    int acked = 0;
    while (acked < count) {
      ClientStream worker = new ClientStream(ModuleWorkServiceGrpc.newStub(channel));
      worker.hello(MODULE);
      Eventually.until("an answer to Hello", () -> !worker.responses.isEmpty() || !worker.open());
      if (worker.responses.isEmpty() || !worker.responses.getFirst().hasWorkUnit()) {
        // No work buffered yet (the consumer is rejoining after the restart): ask again.
        worker.requests.onCompleted();
        continue;
      }
      WorkResponse first = worker.responses.getFirst();
      String unit = first.getWorkUnit().getWorkUnitId();
      served.merge(unit, 1, Integer::sum);
      worker.send(
          WorkRequest.newBuilder()
              .setAck(
                  WorkAck.newBuilder().setWorkUnitId(unit).setNoOp(NoOpResult.getDefaultInstance()))
              .build());
      Eventually.until("the ack of " + unit + " confirmed", () -> worker.completed);
      assertThat(worker.last().getAckConfirmed().getAccepted()).as(unit).isTrue();
      acked++;
    }
  }

  private static void produce(String bootstrap) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      Eventually.until(
          "a leader for every partition",
          () ->
              producer.partitionsFor(KafkaWorkSource.topic(MODULE)).stream()
                  .allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty()));
      for (int i = 0; i < RECORDS; i++) {
        String unit = "wu-" + i;
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
            .send(new ProducerRecord<>(KafkaWorkSource.topic(MODULE), i % 2, unit, d.toByteArray()))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }
}
