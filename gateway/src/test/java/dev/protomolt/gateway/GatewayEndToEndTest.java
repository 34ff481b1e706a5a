package dev.protomolt.gateway;

import static dev.protomolt.testsupport.StepFunctionsExecutions.awaitClosed;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.module.samples.parser.DocumentParser;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Everything over real sockets: the gateway on 127.0.0.1, the SDK's ModuleWorker running the
 * sample parser, WorkDispatch records produced to the in-process Kafka broker by a dispatch
 * function, the local Step Functions runtime holding real {@code .waitForTaskToken} tasks, and the
 * document store on S3Proxy and PostgreSQL.
 */
class GatewayEndToEndTest {

  static final String ACCOUNT = "acme";
  static final String MODULE = "parser";

  /** One module node's Work state as the compiler shapes it, with its Module.Reject catch. */
  static final String DEFINITION =
      """
      {"StartAt":"parse.Work","States":{
        "parse.Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{
            "moduleId":"parser","taskToken.$":"$$.Task.Token","attempt.$":"$$.State.RetryCount",
            "workUnitId.$":"$.workUnitId","heartbeatSeconds":60,"timeoutSeconds":300,
            "executionId.$":"$$.Execution.Id","stream.$":"$.stream"}},
          "HeartbeatSeconds":60,"TimeoutSeconds":300,"ResultPath":"$",
          "Catch":[{"ErrorEquals":["Module.Reject"],"ResultPath":"$.error","Next":"parse.Rejected"}],
          "End":true},
        "parse.Rejected":{"Type":"Pass","End":true}}}\
      """;

  @TempDir Path data;

  @Test
  void aParserBehindTheGatewayCompletesRealWaitingTasks() throws Exception {
    try (StoreHarness h = StoreHarness.start();
        LocalKafka kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
        EmbeddedPostgres sfnPostgres = EmbeddedPostgres.builder().start()) {
      h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        admin
            .createTopics(List.of(new NewTopic(KafkaWorkSource.topic(MODULE), 2, (short) 1)))
            .all()
            .get();
      }
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      AtomicInteger dispatched = new AtomicInteger();
      try (KafkaProducer<String, byte[]> producer =
              new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
          LocalStepFunctions sfnRuntime =
              LocalStepFunctions.start(
                  0,
                  sfnPostgres.getPostgresDatabase(),
                  (function, payload) -> {
                    // The dispatch Lambda's job, done by the test: the pointer record on the topic.
                    try {
                      WorkDispatch d = dispatchOf(payload);
                      producer
                          .send(
                              new ProducerRecord<>(
                                  KafkaWorkSource.topic(d.getModuleId()),
                                  d.getWorkUnitId(),
                                  d.toByteArray()))
                          .get();
                    } catch (Exception e) {
                      throw new IllegalStateException("dispatch failed: " + e, e);
                    }
                    dispatched.incrementAndGet();
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
              new KafkaWorkSource(kafka.bootstrapServers(), "gateway", List.of(MODULE), 64)) {
        ModuleWorkGateway gateway =
            new ModuleWorkGateway(
                source,
                new SfnTaskCompletion(sfn),
                WorkScreen.allOf(
                    new DeadlineScreen(GatewayClock.system()),
                    new SfnExecutionScreen(sfn, Duration.ofSeconds(2))),
                new StoreWorkDocuments(h.store),
                GatewayClock.system(),
                GatewaySettings.defaults());
        Server server =
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(gateway)
                .build()
                .start();
        try {
          String machine =
              sfn.createStateMachine(
                      b ->
                          b.name("parse-graph")
                              .definition(DEFINITION)
                              .roleArn("arn:aws:iam::000000000000:role/local"))
                  .stateMachineArn();
          byte[] text =
              "Harbour notes\n\nThe tide came in at noon and the boats went out."
                  .getBytes(StandardCharsets.UTF_8);
          PipeDoc textDoc = document("doc-text", text, "text/plain");
          PipeDoc imageDoc = document("doc-image", new byte[] {1, 2, 3, 4}, "image/tiff");
          String ok = start(sfn, machine, h, textDoc, "wu-text");
          String rejected = start(sfn, machine, h, imageDoc, "wu-image");
          String stopped =
              start(sfn, machine, h, document("doc-stop", text, "text/plain"), "wu-stop");
          Eventually.until("three dispatches on the topic", () -> dispatched.get() == 3);
          sfn.stopExecution(b -> b.executionArn(stopped).error("Test.Stopped"));

          ManagedChannel channel =
              NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
          ModuleWorker worker =
              new ModuleWorker(
                  channel,
                  WorkerConfig.of(MODULE, 2),
                  new DocumentParser(java.time.Clock.systemUTC()),
                  WorkerClock.system());
          worker.start();
          try {
            DescribeExecutionResponse done = awaitClosed(sfn, ok);
            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            Struct out = json(done.output());
            assertThat(out.getFieldsOrThrow("workUnitId").getStringValue()).isEqualTo("wu-text");
            assertThat(out.getFieldsOrThrow("outcome").getStringValue()).isEqualTo("CONTINUE");
            PipeStream.Builder next = PipeStream.newBuilder();
            JsonFormat.parser()
                .merge(JsonFormat.printer().print(out.getFieldsOrThrow("stream")), next);
            DocumentReference saved = next.getDocumentRef();
            assertThat(saved.getGraphAddressId()).isEqualTo("parse");
            PipeDoc stored =
                h.store
                    .get(GetPipeDocRequest.newBuilder().setDocumentRef(saved).build())
                    .getPipedoc();
            assertThat(stored.getSearchMetadata().getBody()).contains("The tide came in at noon");
            assertThat(stored.getParsedMetadataMap()).containsKey(DocumentParser.PARSER_NAME);
            assertThat(sha256(stored.getBlobBag().getBlob().getData().toByteArray()))
                .as("the source bytes survive the hop bit for bit")
                .isEqualTo(sha256(text));

            DescribeExecutionResponse refused = awaitClosed(sfn, rejected);
            assertThat(refused.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            Struct error = json(refused.output()).getFieldsOrThrow("error").getStructValue();
            assertThat(error.getFieldsOrThrow("Error").getStringValue()).isEqualTo("Module.Reject");
            assertThat(
                    json(error.getFieldsOrThrow("Cause").getStringValue())
                        .getFieldsOrThrow("reason")
                        .getStringValue())
                .isEqualTo("REJECT_REASON_UNSUPPORTED_CONTENT");

            Eventually.until(
                "the stopped execution's record is drained by screening",
                () ->
                    gateway.counters().drainedByReason().getOrDefault("execution-ended", 0L) == 1);
            assertThat(gateway.counters().settledUnits()).isEqualTo(2);
            Eventually.until(
                "every record committed",
                () -> source.committed(MODULE, 0) + source.committed(MODULE, 1) == 3);
            assertThat(worker.completedUnits()).isEqualTo(2);
          } finally {
            worker.close();
            channel.shutdownNow();
          }
        } finally {
          server.shutdownNow();
        }
      }
    }
  }

  static PipeDoc document(String docId, byte[] bytes, String mime) {
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId(docId + "-src")
                        .setData(ByteString.copyFrom(bytes))
                        .setMimeType(mime)
                        .setFilename(docId + ".txt")))
        .build();
  }

  static String start(SfnClient sfn, String machine, StoreHarness h, PipeDoc doc, String unit)
      throws Exception {
    DocumentReference ref = h.store.save(Saves.intake(ACCOUNT, "ds", doc).build()).getDocumentRef();
    PipeStream stream =
        PipeStream.newBuilder()
            .setStreamId("s-" + unit)
            .setCurrentNodeId("parse")
            .setMetadata(StreamMetadata.newBuilder().setAccountId(ACCOUNT).setDatasourceId("ds"))
            .setDocumentRef(ref)
            .build();
    String input =
        "{\"node\":\"parse\",\"workUnitId\":\""
            + unit
            + "\",\"stream\":"
            + JsonFormat.printer().print(stream)
            + "}";
    return sfn.startExecution(b -> b.stateMachineArn(machine).input(input)).executionArn();
  }

  /** What the engine's dispatch Lambda would produce from its Work-state payload. */
  static WorkDispatch dispatchOf(String payloadJson) throws Exception {
    Struct p = json(payloadJson);
    PipeStream.Builder stream = PipeStream.newBuilder();
    JsonFormat.parser().merge(JsonFormat.printer().print(p.getFieldsOrThrow("stream")), stream);
    return WorkDispatch.newBuilder()
        .setWorkUnitId(p.getFieldsOrThrow("workUnitId").getStringValue())
        .setTaskToken(p.getFieldsOrThrow("taskToken").getStringValue())
        .setModuleId(p.getFieldsOrThrow("moduleId").getStringValue())
        .setExecutionArn(p.getFieldsOrThrow("executionId").getStringValue())
        .setHeartbeatSeconds((int) p.getFieldsOrThrow("heartbeatSeconds").getNumberValue())
        .setAttempt((int) p.getFieldsOrThrow("attempt").getNumberValue())
        .setNodeId("parse")
        .setGraphId("parse-graph")
        .setGraphVersion(1)
        .setClusterId("default")
        .addRequiredParts(PipeDocPart.PIPE_DOC_PART_CORE)
        .addRequiredParts(PipeDocPart.PIPE_DOC_PART_PARSED)
        .setNeedsBlobContent(true)
        .setStream(stream)
        .build();
  }

  static Struct json(String s) throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(s, b);
    return b.build();
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
