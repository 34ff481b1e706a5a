package dev.protomolt.gateway;

import static dev.protomolt.gateway.GatewayEndToEndTest.json;
import static dev.protomolt.testsupport.StepFunctionsExecutions.awaitClosed;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.module.samples.sink.DocumentIndexSink;
import dev.protomolt.module.samples.sink.LuceneIndex;
import dev.protomolt.module.samples.sink.UlidGenerator;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The receipt door as AWS has it, over real sockets: the sample Lucene sink behind the SDK's
 * worker sends its receipt with the ack, and the gateway produces it to {@code indexing-receipts}
 * on a broker without automatic topic creation, with the node's plan and the stored state's id,
 * before it completes the waiting task.
 */
class SinkReceiptsEndToEndTest {

  static final String ACCOUNT = "acme";
  static final String MODULE = "sink";
  static final String GRAPH = "sink-graph";
  static final String NODE = "index";

  static final String DEFINITION =
      """
      {"StartAt":"index.Work","States":{
        "index.Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{
            "moduleId":"sink","taskToken.$":"$$.Task.Token","attempt.$":"$$.State.RetryCount",
            "workUnitId.$":"$.workUnitId","executionId.$":"$$.Execution.Id","stream.$":"$.stream"}},
          "HeartbeatSeconds":60,"TimeoutSeconds":300,"ResultPath":"$","End":true}}}\
      """;

  @TempDir Path data;

  @Test
  void aSinksReceiptReachesIndexingReceiptsWithItsPlanAndStoredStateBeforeTheHopCompletes()
      throws Exception {
    try (StoreHarness h = StoreHarness.start();
        LocalKafka kafka = LocalKafka.start(data.resolve("kafka"), 0, 0, false);
        EmbeddedPostgres sfnPostgres = EmbeddedPostgres.builder().start()) {
      h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        // As the stack's topics resource creates them: MSK Serverless makes none on first write.
        admin
            .createTopics(
                List.of(
                    new NewTopic(KafkaWorkSource.topic(MODULE), 1, (short) 1),
                    new NewTopic(PlatformTopic.INDEXING_RECEIPTS.topicName(), 1, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      List<DocumentIndexedEvent> localReceipts = new CopyOnWriteArrayList<>();
      try (KafkaProducer<String, byte[]> producer =
              new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
          KafkaReceiptProducer receipts =
              new KafkaReceiptProducer(kafka.bootstrapServers(), Map.of(), Duration.ofSeconds(30));
          LocalStepFunctions sfnRuntime =
              LocalStepFunctions.start(
                  0,
                  sfnPostgres.getPostgresDatabase(),
                  (function, payload) -> {
                    try {
                      WorkDispatch d = dispatchOf(payload);
                      producer
                          .send(
                              new ProducerRecord<>(
                                  KafkaWorkSource.topic(MODULE),
                                  d.getWorkUnitId(),
                                  d.toByteArray()))
                          .get();
                    } catch (Exception e) {
                      throw new IllegalStateException("dispatch failed: " + e, e);
                    }
                    return "{}";
                  },
                  Clock.system());
          SfnClient sfn =
              SfnClient.builder()
                  .endpointOverride(sfnRuntime.endpoint())
                  .region(Region.US_EAST_1)
                  .httpClient(UrlConnectionHttpClient.create())
                  .credentialsProvider(
                      StaticCredentialsProvider.create(
                          AwsBasicCredentials.create("local", "local")))
                  .build();
          KafkaWorkSource source =
              new KafkaWorkSource(kafka.bootstrapServers(), "gateway", List.of(MODULE), 64);
          LuceneIndex index = LuceneIndex.open(data.resolve("index"))) {
        ModuleWorkGateway gateway =
            new ModuleWorkGateway(
                source,
                new SfnTaskCompletion(sfn),
                WorkScreen.allOf(new DeadlineScreen(GatewayClock.system())),
                new StoreWorkDocuments(h.store),
                GatewayClock.system(),
                GatewaySettings.defaults(),
                WorkUnitLogs.NONE,
                receipts);
        Server server =
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(gateway)
                .build()
                .start();
        ManagedChannel channel =
            NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
        java.time.Clock clock = java.time.Clock.systemUTC();
        ModuleWorker worker =
            new ModuleWorker(
                channel,
                WorkerConfig.of(MODULE, 1),
                new DocumentIndexSink(
                    index,
                    localReceipts::add,
                    "harbour-index",
                    clock,
                    new UlidGenerator(clock, new Random(7))),
                WorkerClock.system());
        try {
          String machine =
              sfn.createStateMachine(
                      b ->
                          b.name(GRAPH)
                              .definition(DEFINITION)
                              .roleArn("arn:aws:iam::000000000000:role/local"))
                  .stateMachineArn();
          PipeDoc doc =
              PipeDoc.newBuilder()
                  .setDocId("doc-1")
                  .setSearchMetadata(
                      SearchMetadata.newBuilder()
                          .setTitle("Harbour notes")
                          .setBody("The tide came in at noon and the boats went out."))
                  .build();
          DocumentReference ref =
              h.store.save(Saves.intake(ACCOUNT, "ds", doc).build()).getDocumentRef();
          PipeStream stream =
              PipeStream.newBuilder()
                  .setStreamId("s-1")
                  .setCurrentNodeId(NODE)
                  .setMetadata(
                      StreamMetadata.newBuilder().setAccountId(ACCOUNT).setDatasourceId("ds"))
                  .setDocumentRef(ref)
                  .build();
          String input =
              "{\"workUnitId\":\"wu-1\",\"stream\":" + JsonFormat.printer().print(stream) + "}";
          String execution =
              sfn.startExecution(b -> b.stateMachineArn(machine).input(input)).executionArn();
          worker.start();

          assertThat(awaitClosed(sfn, execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
          List<DocumentIndexedEvent> produced = consume(kafka.bootstrapServers(), 1);
          assertThat(produced)
              .singleElement()
              .satisfies(
                  r -> {
                    assertThat(r.getOutcome()).isEqualTo(IndexOutcome.INDEX_OUTCOME_INDEXED);
                    assertThat(r.getPlanId()).isEqualTo("plan-1");
                    assertThat(r.getNodeId())
                        .as("the stored state at the sink's address, not the graph node id")
                        .isEqualTo(NodeIds.nodeId("doc-1", NODE, ACCOUNT, GRAPH).toString());
                    assertThat(r.getGraphId()).isEqualTo(GRAPH);
                    assertThat(r.getGraphVersion()).isEqualTo(3);
                    assertThat(r.getAccountId()).isEqualTo(ACCOUNT);
                    assertThat(r.getIndexName()).isEqualTo("harbour-index");
                  });
          assertThat(localReceipts)
              .as("the sink's own copy is the receipt the gateway produced")
              .singleElement()
              .satisfies(r -> assertThat(r).isEqualTo(produced.getFirst()));
        } finally {
          worker.close();
          channel.shutdownNow();
          server.shutdownNow();
        }
      }
    }
  }

  /** What the engine's dispatch Lambda would produce for the sink node of plan {@code plan-1}. */
  static WorkDispatch dispatchOf(String payloadJson) throws Exception {
    Struct p = json(payloadJson);
    PipeStream.Builder stream = PipeStream.newBuilder();
    JsonFormat.parser().merge(JsonFormat.printer().print(p.getFieldsOrThrow("stream")), stream);
    return WorkDispatch.newBuilder()
        .setWorkUnitId(p.getFieldsOrThrow("workUnitId").getStringValue())
        .setTaskToken(p.getFieldsOrThrow("taskToken").getStringValue())
        .setModuleId(MODULE)
        .setExecutionArn(p.getFieldsOrThrow("executionId").getStringValue())
        .setAttempt((int) p.getFieldsOrThrow("attempt").getNumberValue())
        .setNodeId(NODE)
        .setGraphId(GRAPH)
        .setGraphVersion(3)
        .setClusterId("default")
        .addIndexPlanIds("plan-1")
        .setStream(stream)
        .build();
  }

  private static List<DocumentIndexedEvent> consume(String bootstrap, int count) throws Exception {
    List<DocumentIndexedEvent> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "receipt-reader",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(PlatformTopic.INDEXING_RECEIPTS.topicName()));
      // The receipt was acknowledged before the task completed, so it is there to read; the bound
      // only stops a broken run from hanging.
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          out.add(DocumentIndexedEvent.parseFrom(r.value()));
        }
      }
    }
    return out;
  }
}
