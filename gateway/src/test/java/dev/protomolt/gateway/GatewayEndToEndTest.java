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
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.statemachines.ErrorNames;
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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
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

  /**
   * One module node's Work state as the compiler shapes it, with its Module.Reject catch and the
   * catch-all that dead-letters (a Pass standing in for N.Dlq, so the error stays in the output).
   */
  static final String DEFINITION =
      """
      {"StartAt":"parse.Work","States":{
        "parse.Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{
            "moduleId":"parser","taskToken.$":"$$.Task.Token","attempt.$":"$$.State.RetryCount",
            "workUnitId.$":"$.workUnitId","heartbeatSeconds":60,"timeoutSeconds":300,
            "executionId.$":"$$.Execution.Id","stream.$":"$.stream"}},
          "HeartbeatSeconds":60,"TimeoutSeconds":300,"ResultPath":"$",
          "Catch":[{"ErrorEquals":["Module.Reject"],"ResultPath":"$.error","Next":"parse.Rejected"},
            {"ErrorEquals":["States.ALL"],"ResultPath":"$.error","Next":"parse.Dlq"}],
          "End":true},
        "parse.Rejected":{"Type":"Pass","End":true},
        "parse.Dlq":{"Type":"Pass","End":true}}}\
      """;

  @TempDir Path data;

  @Test
  void aParserBehindTheGatewayCompletesRealWaitingTasks() throws Exception {
    try (Rig rig = new Rig(data)) {
      StoreHarness h = rig.store;
      SfnClient sfn = rig.sfn;
      String machine = rig.machine("parse-graph");
      byte[] text =
          "Harbour notes\n\nThe tide came in at noon and the boats went out."
              .getBytes(StandardCharsets.UTF_8);
      PipeDoc textDoc = document("doc-text", text, "text/plain");
      PipeDoc imageDoc = document("doc-image", new byte[] {1, 2, 3, 4}, "image/tiff");
      String ok = start(sfn, machine, h, textDoc, "wu-text");
      String rejected = start(sfn, machine, h, imageDoc, "wu-image");
      String stopped = start(sfn, machine, h, document("doc-stop", text, "text/plain"), "wu-stop");
      Eventually.until("three dispatches on the topic", () -> rig.dispatched.get() == 3);
      sfn.stopExecution(b -> b.executionArn(stopped).error("Test.Stopped"));

      try (Worker worker = rig.worker(new DocumentParser(java.time.Clock.systemUTC()))) {
        DescribeExecutionResponse done = awaitClosed(sfn, ok);
        assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        Struct out = json(done.output());
        assertThat(out.getFieldsOrThrow("workUnitId").getStringValue()).isEqualTo("wu-text");
        assertThat(out.getFieldsOrThrow("outcome").getStringValue()).isEqualTo("CONTINUE");
        DocumentReference saved = streamOf(out).getDocumentRef();
        assertThat(saved.getGraphAddressId()).isEqualTo("parse");
        PipeDoc stored =
            h.store.get(GetPipeDocRequest.newBuilder().setDocumentRef(saved).build()).getPipedoc();
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
                rig.gateway.counters().drainedByReason().getOrDefault("execution-ended", 0L) == 1);
        assertThat(rig.gateway.counters().settledUnits()).isEqualTo(2);
        Eventually.until(
            "every record committed",
            () -> rig.source.committed(MODULE, 0) + rig.source.committed(MODULE, 1) == 3);
        assertThat(worker.module.completedUnits()).isEqualTo(2);
      }
    }
  }

  /**
   * A result whose JSON passes Step Functions' 256 KiB output limit though its protobuf is small
   * (dense vectors: 4 bytes a float in protobuf, about 11 in JSON) must end its unit. An inline
   * body goes by reference instead (a claim check at the hop's address); a right-to-be-forgotten
   * body may never be stored, so its hop fails typed and the catch-all dead-letters it with the
   * limit as its cause. Before decision 1656 both were re-buffered and served forever.
   */
  @Test
  void aResultTooLargeForStepFunctionsGoesByReferenceOrDeadLettersNamingTheLimit()
      throws Exception {
    try (Rig rig = new Rig(data)) {
      SfnClient sfn = rig.sfn;
      String machine = rig.machine("embed-graph");
      Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
      DocumentProcessor embedder =
          work -> {
            calls
                .computeIfAbsent(work.document().getDocId(), k -> new AtomicInteger())
                .incrementAndGet();
            return new ModuleOutcome.Updated(withVectors(work.document()));
          };
      PipeDoc forgettable =
          document("doc-forgettable", "forget me".getBytes(StandardCharsets.UTF_8), "text/plain")
              .toBuilder()
              .setOwnership(
                  OwnershipContext.newBuilder().setAccountId(ACCOUNT).setRightToBeForgotten(true))
              .build();
      PipeDoc plain =
          document("doc-plain", "keep me".getBytes(StandardCharsets.UTF_8), "text/plain");
      assertThat(withVectors(plain).getSerializedSize())
          .as("small as protobuf: under the old 160 KiB protobuf bound that let it ride inline")
          .isLessThan(160 * 1024);
      assertThat(TaskOutputs.streamJsonBytes(inlineStream(withVectors(plain), "wu-x")))
          .as("but over Step Functions' limit as the JSON it would ride in")
          .isGreaterThan(PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES);

      try (Worker worker = rig.worker(embedder)) {
        // One at a time, so the PUT count below belongs to the forgettable document alone.
        String forgotten = startInline(sfn, machine, forgettable, "wu-forgettable");
        DescribeExecutionResponse dead = awaitClosed(sfn, forgotten);
        assertThat(dead.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        Struct error = json(dead.output()).getFieldsOrThrow("error").getStructValue();
        assertThat(error.getFieldsOrThrow("Error").getStringValue())
            .isEqualTo(ErrorNames.TASK_OUTPUT_TOO_LARGE);
        Struct cause = json(error.getFieldsOrThrow("Cause").getStringValue());
        assertThat(cause.getFieldsOrThrow("reason").getStringValue())
            .isEqualTo("REJECT_REASON_PAYLOAD_TOO_LARGE");
        assertThat(cause.getFieldsOrThrow("limitBytes").getNumberValue())
            .isEqualTo(StoreWorkDocuments.INLINE_LIMIT_BYTES);
        assertThat(cause.getFieldsOrThrow("outputBytes").getNumberValue())
            .isGreaterThan(PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES);
        assertThat(cause.getFieldsOrThrow("detail").getStringValue())
            .contains("wu-forgettable", "right-to-be-forgotten", "262,144");
        assertThat(rig.store.counter.calls("PutObject"))
            .as("none of a right-to-be-forgotten document's bytes are written")
            .isZero();
        Eventually.until(
            "the module heard why its ack was refused", () -> worker.module.refusedAcks() == 1);

        String claimed = startInline(sfn, machine, plain, "wu-plain");
        DescribeExecutionResponse done = awaitClosed(sfn, claimed);
        assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        Struct out = json(done.output());
        assertThat(out.getFieldsOrThrow("outcome").getStringValue()).isEqualTo("CONTINUE");
        PipeStream next = streamOf(out);
        assertThat(next.hasDocumentRef()).as("the result went by reference").isTrue();
        assertThat(next.getDocumentRef().getGraphAddressId()).isEqualTo("parse");
        assertThat(next.getDocumentRef().getKeep())
            .as("a MEMORY result ducks to a CACHE copy, never to PERSIST")
            .isFalse();
        PipeDoc stored =
            rig.store
                .store
                .get(GetPipeDocRequest.newBuilder().setDocumentRef(next.getDocumentRef()).build())
                .getPipedoc();
        assertThat(stored.getSearchMetadata().getSemanticResultsList())
            .isEqualTo(withVectors(plain).getSearchMetadata().getSemanticResultsList());

        assertThat(calls)
            .as("each document reached the module once: nothing looped")
            .containsOnlyKeys("doc-forgettable", "doc-plain")
            .allSatisfy((doc, n) -> assertThat(n.get()).isEqualTo(1));
        assertThat(rig.gateway.counters().served()).isEqualTo(2);
        assertThat(rig.gateway.counters().rebufferedUnits()).isZero();
        assertThat(rig.gateway.counters().outputsTooLarge()).isEqualTo(1);
        assertThat(rig.gateway.counters().settledUnits()).isEqualTo(2);
        Eventually.until(
            "both records committed",
            () -> rig.source.committed(MODULE, 0) + rig.source.committed(MODULE, 1) == 2);
      }
    }
  }

  /** 100 chunks of 384-float vectors: about 155 KB of protobuf, over 400 KB of JSON. */
  static PipeDoc withVectors(PipeDoc doc) {
    Random random = new Random(doc.getDocId().hashCode());
    SemanticProcessingResult.Builder set =
        SemanticProcessingResult.newBuilder()
            .setResultId("body-vectors")
            .setSourceFieldName("body");
    for (int c = 0; c < 100; c++) {
      ChunkEmbedding.Builder embedding = ChunkEmbedding.newBuilder().setTextContent("chunk " + c);
      for (int i = 0; i < 384; i++) {
        embedding.addVector(random.nextFloat());
      }
      set.addChunks(SemanticChunk.newBuilder().setChunkId("c" + c).setEmbeddingInfo(embedding));
    }
    PipeDoc.Builder out = doc.toBuilder();
    out.getSearchMetadataBuilder().clearSemanticResults().addSemanticResults(set);
    return out.build();
  }

  static PipeStream inlineStream(PipeDoc doc, String unit) {
    return PipeStream.newBuilder()
        .setStreamId("s-" + unit)
        .setCurrentNodeId("parse")
        .setMetadata(StreamMetadata.newBuilder().setAccountId(ACCOUNT).setDatasourceId("ds"))
        .setDocument(doc)
        .build();
  }

  /** An execution whose body rides inline, as over a MEMORY edge. */
  static String startInline(SfnClient sfn, String machine, PipeDoc doc, String unit)
      throws Exception {
    return startWith(sfn, machine, inlineStream(doc, unit), unit);
  }

  static PipeStream streamOf(Struct workOutput) throws Exception {
    PipeStream.Builder next = PipeStream.newBuilder();
    JsonFormat.parser()
        .merge(JsonFormat.printer().print(workOutput.getFieldsOrThrow("stream")), next);
    return next.build();
  }

  /** A module worker over a real channel to the rig's gateway. */
  static final class Worker implements AutoCloseable {
    final ModuleWorker module;
    private final ManagedChannel channel;

    Worker(int port, DocumentProcessor processor) {
      channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      module =
          new ModuleWorker(channel, WorkerConfig.of(MODULE, 2), processor, WorkerClock.system());
      module.start();
    }

    @Override
    public void close() {
      module.close();
      channel.shutdownNow();
    }
  }

  /**
   * The store on S3Proxy and PostgreSQL, the Kafka broker, the local Step Functions runtime whose
   * dispatch function produces the pointer record, and the gateway on a real socket.
   */
  static final class Rig implements AutoCloseable {
    final StoreHarness store;
    final SfnClient sfn;
    final KafkaWorkSource source;
    final ModuleWorkGateway gateway;
    final AtomicInteger dispatched = new AtomicInteger();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private final Server server;

    Rig(Path data) throws Exception {
      store = open(StoreHarness.start());
      LocalKafka kafka = open(LocalKafka.start(data.resolve("kafka"), 0, 0));
      EmbeddedPostgres sfnPostgres = open(EmbeddedPostgres.builder().start());
      store.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
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
      KafkaProducer<String, byte[]> producer =
          open(new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer()));
      LocalStepFunctions sfnRuntime =
          open(
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
                  Clock.system()));
      sfn =
          open(
              SfnClient.builder()
                  .endpointOverride(sfnRuntime.endpoint())
                  .region(Region.US_EAST_1)
                  .httpClient(UrlConnectionHttpClient.create())
                  .credentialsProvider(
                      StaticCredentialsProvider.create(
                          AwsBasicCredentials.create("local", "local")))
                  .build());
      source = open(new KafkaWorkSource(kafka.bootstrapServers(), "gateway", List.of(MODULE), 64));
      gateway =
          new ModuleWorkGateway(
              source,
              new SfnTaskCompletion(sfn),
              WorkScreen.allOf(
                  new DeadlineScreen(GatewayClock.system()),
                  new SfnExecutionScreen(sfn, Duration.ofSeconds(2))),
              new StoreWorkDocuments(store.store),
              GatewayClock.system(),
              GatewaySettings.defaults());
      server =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .addService(gateway)
              .build()
              .start();
      opened.push(server::shutdownNow);
    }

    String machine(String name) {
      return sfn.createStateMachine(
              b ->
                  b.name(name)
                      .definition(DEFINITION)
                      .roleArn("arn:aws:iam::000000000000:role/local"))
          .stateMachineArn();
    }

    Worker worker(DocumentProcessor processor) {
      return new Worker(server.getPort(), processor);
    }

    private <T extends AutoCloseable> T open(T resource) {
      opened.push(resource);
      return resource;
    }

    @Override
    public void close() {
      IllegalStateException failed = null;
      while (!opened.isEmpty()) {
        try {
          opened.pop().close();
        } catch (Exception e) {
          if (failed == null) {
            failed = new IllegalStateException("closing the rig failed", e);
          } else {
            failed.addSuppressed(e);
          }
        }
      }
      if (failed != null) {
        throw failed;
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
    return startWith(sfn, machine, stream, unit);
  }

  static String startWith(SfnClient sfn, String machine, PipeStream stream, String unit)
      throws Exception {
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
