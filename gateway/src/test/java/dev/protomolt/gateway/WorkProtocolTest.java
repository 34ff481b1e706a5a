package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.Heartbeat;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.statemachines.ErrorNames;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import dev.protomolt.tracing.Tracing;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Work conversation step by step, in-process on directExecutor with a hand-moved clock; the
 * document store is the real one (S3Proxy and embedded PostgreSQL).
 */
class WorkProtocolTest {

  static final String ACCOUNT = "acme";
  static final String GRAPH = "news-graph";
  static final String MODULE = "parser";
  static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  static StoreHarness h;

  ManualGatewayClock clock;
  BufferedWorkSource source;
  RecordingTaskCompletion sfn;
  ModuleWorkGateway gateway;
  Server server;
  ManagedChannel channel;
  ModuleWorkServiceGrpc.ModuleWorkServiceStub stub;
  String serverName;

  @BeforeAll
  static void startStore() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
  }

  @AfterAll
  static void stopStore() throws Exception {
    h.close();
  }

  @BeforeEach
  void startGateway() throws Exception {
    clock = new ManualGatewayClock(T0);
    source = new BufferedWorkSource(100);
    sfn = new RecordingTaskCompletion();
    WorkScreen screen =
        WorkScreen.allOf(
            new DeadlineScreen(clock),
            // Stands in for the execution-status screen, which needs Step Functions (see the E2E
            // test).
            d ->
                d.getExecutionArn().endsWith(":ended")
                    ? new ScreenVerdict.Drain("execution-ended", d.getExecutionArn())
                    : ScreenVerdict.SERVE);
    gateway =
        new ModuleWorkGateway(
            source,
            sfn,
            screen,
            new StoreWorkDocuments(h.store),
            clock,
            GatewaySettings.defaults());
    String name = InProcessServerBuilder.generateName();
    serverName = name;
    server =
        InProcessServerBuilder.forName(name).directExecutor().addService(gateway).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = ModuleWorkServiceGrpc.newStub(channel);
  }

  @AfterEach
  void stopGateway() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  // ---------------------------------------------------------------------------------- fixtures

  static PipeDoc doc(String docId) {
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setSearchMetadata(
            SearchMetadata.newBuilder().setTitle("title of " + docId).setBody("body of " + docId))
        .build();
  }

  static WorkDispatch.Builder inline(String unit, String token, PipeDoc doc) {
    return WorkDispatch.newBuilder()
        .setWorkUnitId(unit)
        .setTaskToken(token)
        .setModuleId(MODULE)
        .setNodeId("parse")
        .setGraphId(GRAPH)
        .setGraphVersion(3)
        .setClusterId("default")
        .setAttempt(0)
        .setHeartbeatSeconds(20)
        .setExecutionArn("arn:aws:states:us-east-1:000000000000:execution:m:e-" + unit)
        .setStream(
            PipeStream.newBuilder()
                .setStreamId("s-" + unit)
                .setCurrentNodeId("parse")
                .setMetadata(StreamMetadata.newBuilder().setAccountId(ACCOUNT).setHopCount(1))
                .setDocument(doc));
  }

  void offer(WorkDispatch d) {
    assertThat(source.offer(MODULE, d.getWorkUnitId(), d.toByteArray())).isTrue();
  }

  static WorkRequest ack(WorkAck.Builder ack) {
    return WorkRequest.newBuilder().setAck(ack).build();
  }

  static WorkRequest heartbeat(String unit) {
    return WorkRequest.newBuilder()
        .setHeartbeat(Heartbeat.newBuilder().setWorkUnitId(unit))
        .build();
  }

  static Struct json(String s) throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(s, b);
    return b.build();
  }

  static PipeStream streamOf(String outputJson) throws Exception {
    Struct out = json(outputJson);
    PipeStream.Builder b = PipeStream.newBuilder();
    JsonFormat.parser().merge(JsonFormat.printer().print(out.getFieldsOrThrow("stream")), b);
    return b.build();
  }

  // ------------------------------------------------------------------------------ hello / wait

  @Test
  void helloWithNothingBufferedAnswersNoWorkAvailableAfterFiveSeconds() {
    ClientStream s = new ClientStream(stub).hello(MODULE);
    clock.advance(Duration.ofMillis(4_999));
    assertThat(s.responses).isEmpty();
    assertThat(s.open()).isTrue();

    clock.advance(Duration.ofMillis(1));
    assertThat(s.responses).hasSize(1);
    assertThat(s.last().hasNoWork()).isTrue();
    assertThat(s.last().getNoWork().getRetryAfterMs()).isEqualTo(500);
    assertThat(s.completed).isTrue();
  }

  @Test
  void workArrivingWhileAHelloWaitsIsServedAtOnceAndTheWaitIsAbandoned() {
    ClientStream s = new ClientStream(stub).hello(MODULE);
    clock.advance(Duration.ofSeconds(3));
    offer(inline("u1", "t1", doc("d1")).build());

    assertThat(s.responses).hasSize(1);
    assertThat(s.last().getWorkUnit().getWorkUnitId()).isEqualTo("u1");
    clock.advance(Duration.ofSeconds(3));
    assertThat(s.responses).as("no NoWorkAvailable after the unit was served").hasSize(1);
  }

  @Test
  void aHelloForAnotherModuleDoesNotSeeThisModulesWork() {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello("chunker");
    clock.advance(Duration.ofSeconds(5));
    assertThat(s.last().hasNoWork()).isTrue();
    assertThat(source.buffered(MODULE)).isEqualTo(1);
  }

  @Test
  void theWorkUnitCarriesTheHopIdentityAndTheModulesHeartbeatInterval() {
    WorkDispatch d =
        inline("u1", "t1", doc("d1"))
            .setCustomConfig(
                Struct.newBuilder()
                    .putFields("size", Value.newBuilder().setNumberValue(512).build()))
            .setAttempt(2)
            .build();
    offer(d);
    ClientStream s = new ClientStream(stub).hello(MODULE);
    var wu = s.last().getWorkUnit();
    assertThat(wu.getNodeId()).isEqualTo("parse");
    assertThat(wu.getGraphId()).isEqualTo(GRAPH);
    assertThat(wu.getGraphVersion()).isEqualTo(3);
    assertThat(wu.getAttempt()).isEqualTo(2);
    assertThat(wu.getCustomConfig()).isEqualTo(d.getCustomConfig());
    // Half of the Work state's 20 s, so relayed heartbeats land well inside its window.
    assertThat(wu.getHeartbeatIntervalSeconds()).isEqualTo(10);
    assertThat(wu.getStream().getDocument()).isEqualTo(doc("d1"));
  }

  // ---------------------------------------------------------------------------------- outcomes

  @Test
  void updatedPayloadOnAStoredDocumentIsSavedAsAPartialSaveAndCompletesTheToken() throws Exception {
    PipeDoc original = SampleDocs.document("doc-upd", 7, 4096, "para");
    DocumentReference intake =
        h.store.save(Saves.intake(ACCOUNT, "ds", original).build()).getDocumentRef();
    WorkDispatch d =
        inline("u-upd", "t-upd", original)
            .setStream(
                inline("u-upd", "t-upd", original).getStream().toBuilder().setDocumentRef(intake))
            .addRequiredParts(PipeDocPart.PIPE_DOC_PART_CORE)
            .build();
    offer(d);

    ClientStream s = new ClientStream(stub).hello(MODULE);
    var wu = s.last().getWorkUnit();
    assertThat(wu.getBlobContentIncluded()).isFalse();
    PipeDoc served = wu.getStream().getDocument();
    assertThat(served.getSearchMetadata().getTitle()).isEqualTo("Document doc-upd");
    assertThat(served.hasBlobBag()).as("no blob bytes without needs_blob_content").isFalse();

    PipeDoc processed =
        served.toBuilder()
            .setSearchMetadata(served.getSearchMetadata().toBuilder().setTitle("Parsed title"))
            .build();
    s.send(ack(WorkAck.newBuilder().setWorkUnitId("u-upd").setUpdatedPayload(Any.pack(processed))));

    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    assertThat(s.completed).isTrue();
    var success = sfn.calls("success");
    assertThat(success).hasSize(1);
    Struct out = json(success.getFirst().json());
    assertThat(out.getFieldsOrThrow("workUnitId").getStringValue()).isEqualTo("u-upd");
    assertThat(out.getFieldsOrThrow("outcome").getStringValue()).isEqualTo("CONTINUE");
    PipeStream next = streamOf(success.getFirst().json());
    assertThat(next.hasDocument()).isFalse();
    DocumentReference saved = next.getDocumentRef();
    assertThat(saved.getGraphAddressId()).isEqualTo("parse");
    assertThat(saved.getGraphId()).isEqualTo(GRAPH);
    assertThat(next.getStreamId()).isEqualTo("s-u-upd");

    var read = h.store.get(GetPipeDocRequest.newBuilder().setDocumentRef(saved).build());
    assertThat(read.getPipedoc().getSearchMetadata().getTitle()).isEqualTo("Parsed title");
    assertThat(read.getPipedoc().getBlobBag())
        .as("the unread blob is carried forward intact")
        .isEqualTo(original.getBlobBag());
    assertThat(read.getPipedoc().getParsedMetadataMap()).isEqualTo(original.getParsedMetadataMap());
    PartManifestEntry blobs =
        read.getManifest().getEntriesList().stream()
            .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS)
            .findFirst()
            .orElseThrow();
    assertThat(blobs.getWrittenBy().getCarriedForward()).isTrue();
    PartManifestEntry core =
        read.getManifest().getEntriesList().stream()
            .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_CORE)
            .findFirst()
            .orElseThrow();
    assertThat(core.getWrittenBy().getCarriedForward()).isFalse();
    assertThat(core.getWrittenBy().getWorkUnitId()).isEqualTo("u-upd");
    assertThat(source.inFlight()).isZero();
    assertThat(gateway.counters().settledUnits()).isEqualTo(1);
  }

  @Test
  void needsBlobContentHydratesTheBlobBytes() {
    PipeDoc original = SampleDocs.document("doc-blob", 8, 2048);
    DocumentReference intake =
        h.store.save(Saves.intake(ACCOUNT, "ds", original).build()).getDocumentRef();
    WorkDispatch.Builder d = inline("u-blob", "t-blob", original);
    offer(
        d.setStream(d.getStream().toBuilder().setDocumentRef(intake))
            .setNeedsBlobContent(true)
            .build());

    var wu = new ClientStream(stub).hello(MODULE).last().getWorkUnit();
    assertThat(wu.getBlobContentIncluded()).isTrue();
    assertThat(wu.getStream().getDocument().getBlobBag()).isEqualTo(original.getBlobBag());
  }

  @Test
  void anInlineUpdatedDocumentStaysInlineInTheSuccessOutput() throws Exception {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    PipeDoc processed =
        doc("d1").toBuilder()
            .setSearchMetadata(doc("d1").getSearchMetadata().toBuilder().setTitle("changed"))
            .build();
    s.send(ack(WorkAck.newBuilder().setWorkUnitId("u1").setUpdatedPayload(Any.pack(processed))));

    PipeStream next = streamOf(sfn.calls("success").getFirst().json());
    assertThat(next.getDocument()).isEqualTo(processed);
  }

  @Test
  void noOpCompletesWithTheStreamUnchanged() throws Exception {
    WorkDispatch d = inline("u1", "t1", doc("d1")).build();
    offer(d);
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setNoOp(
                    NoOpResult.newBuilder().setReason(NoOpReason.NO_OP_REASON_NOTHING_TO_DO))));

    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    var call = sfn.calls("success").getFirst();
    assertThat(call.token()).isEqualTo("t1");
    assertThat(json(call.json()).getFieldsOrThrow("outcome").getStringValue()).isEqualTo("NO_OP");
    assertThat(streamOf(call.json())).isEqualTo(d.getStream());
  }

  @Test
  void rejectFailsTheTaskWithModuleRejectAndItsReason() throws Exception {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setReject(
                    Reject.newBuilder()
                        .setReason(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT)
                        .setDetail("image/tiff"))));

    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    var call = sfn.calls("failure").getFirst();
    assertThat(call.error()).isEqualTo(ErrorNames.MODULE_REJECT);
    assertThat(json(call.json()))
        .isEqualTo(
            json("{\"reason\":\"REJECT_REASON_UNSUPPORTED_CONTENT\",\"detail\":\"image/tiff\"}"));
    assertThat(sfn.calls("success")).isEmpty();
  }

  @Test
  void retryableFailureFailsTheTaskWithModuleRetryable() throws Exception {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setRetryableFailure(
                    RetryableFailure.newBuilder()
                        .setReason(RetryReason.RETRY_REASON_RATE_LIMITED)
                        .setDetail("429")
                        .setRetryAfterMs(2500))));

    var call = sfn.calls("failure").getFirst();
    assertThat(call.error()).isEqualTo(ErrorNames.MODULE_RETRYABLE);
    assertThat(json(call.json()))
        .isEqualTo(
            json(
                "{\"reason\":\"RETRY_REASON_RATE_LIMITED\",\"detail\":\"429\",\"retryAfterMs\":2500}"));
    assertThat(source.inFlight()).isZero();
  }

  // -------------------------------------------------------------------- heartbeats and watchdog

  @Test
  void heartbeatsAreRelayedToStepFunctionsThrottled() {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);

    clock.advance(Duration.ofSeconds(1));
    s.send(heartbeat("u1"));
    assertThat(sfn.calls("heartbeat")).as("a beat 1 s in is throttled (interval 10 s)").isEmpty();

    clock.advance(Duration.ofSeconds(5));
    s.send(heartbeat("u1"));
    assertThat(sfn.calls("heartbeat")).hasSize(1);
    s.send(heartbeat("u1"));
    assertThat(sfn.calls("heartbeat")).as("a second beat at the same instant").hasSize(1);

    clock.advance(Duration.ofSeconds(10));
    s.send(heartbeat("u1"));
    assertThat(sfn.calls("heartbeat")).hasSize(2);
    assertThat(gateway.counters().heartbeatsRelayed()).isEqualTo(2);
    assertThat(s.open()).isTrue();
  }

  @Test
  void watchdogClosesASilentStreamAfterTwiceTheIntervalAndRebuffersAtTheHead() {
    offer(inline("u1", "t1", doc("d1")).build());
    offer(inline("u2", "t2", doc("d2")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    assertThat(source.keys(MODULE)).containsExactly("u2");

    clock.advance(Duration.ofMillis(19_999));
    assertThat(s.open()).isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(s.closedWith.getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(s.closedWith.getDescription()).contains("u1");
    assertThat(source.keys(MODULE)).containsExactly("u1", "u2");
    assertThat(sfn.calls).isEmpty();
  }

  @Test
  void eachHeartbeatRearmsTheWatchdog() {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofSeconds(15));
      s.send(heartbeat("u1"));
    }
    assertThat(s.open()).as("75 s of work with a beat every 15 s").isTrue();
    clock.advance(Duration.ofSeconds(20));
    assertThat(s.open()).isFalse();
    assertThat(source.keys(MODULE)).containsExactly("u1");
  }

  @Test
  void transportDeathBeforeTheAckRebuffersAtTheHead() {
    offer(inline("u1", "t1", doc("d1")).build());
    offer(inline("u2", "t2", doc("d2")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.requests.onError(new RuntimeException("worker killed"));

    assertThat(source.keys(MODULE)).containsExactly("u1", "u2");
    assertThat(source.inFlight()).isZero();
    assertThat(new ClientStream(stub).hello(MODULE).last().getWorkUnit().getWorkUnitId())
        .isEqualTo("u1");
    assertThat(sfn.calls).isEmpty();
  }

  // ------------------------------------------------------------------------------- duplicates

  @Test
  void anAckForASupersededTokenIsADuplicateAndChangesNothing() {
    PipeDoc original = SampleDocs.document("doc-dup", 9, 512);
    DocumentReference intake =
        h.store.save(Saves.intake(ACCOUNT, "ds", original).build()).getDocumentRef();
    WorkDispatch.Builder d = inline("u-dup", "t-dup", original).setNodeId("dup-node");
    offer(d.setStream(d.getStream().toBuilder().setDocumentRef(intake)).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    sfn.expire("t-dup");

    s.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u-dup")
                .setUpdatedPayload(Any.pack(doc("doc-dup")))));

    var confirmed = s.last().getAckConfirmed();
    assertThat(confirmed.getAccepted()).isFalse();
    assertThat(confirmed.getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_DUPLICATE_DELIVERY);
    assertThat(sfn.calls("success")).isEmpty();
    DocumentReference hopCopy =
        intake.toBuilder().setGraphAddressId("dup-node").setGraphId(GRAPH).clearNodeId().build();
    assertThatThrownBy(
            () -> h.store.get(GetPipeDocRequest.newBuilder().setDocumentRef(hopCopy).build()))
        .as("nothing was saved at the hop")
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    assertThat(source.inFlight()).isZero();
    assertThat(source.buffered(MODULE)).isZero();
    assertThat(gateway.counters().duplicateAcks()).isEqualTo(1);
  }

  @Test
  void theSecondOfTwoStreamsServingTheSameTokenGetsDuplicateDelivery() {
    WorkDispatch d = inline("u1", "t1", doc("d1")).build();
    offer(d);
    offer(d);
    ClientStream a = new ClientStream(stub).hello(MODULE);
    ClientStream b = new ClientStream(stub).hello(MODULE);
    WorkAck.Builder noOp =
        WorkAck.newBuilder()
            .setWorkUnitId("u1")
            .setNoOp(NoOpResult.newBuilder().setReason(NoOpReason.NO_OP_REASON_NOTHING_TO_DO));
    a.send(ack(noOp));
    b.send(ack(noOp));

    assertThat(a.last().getAckConfirmed().getAccepted()).isTrue();
    assertThat(b.last().getAckConfirmed().getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_DUPLICATE_DELIVERY);
    assertThat(sfn.calls("success")).hasSize(1);
  }

  @Test
  void aRedeliveredRecordForASettledTokenIsDrainedWithoutReachingAModule() {
    WorkDispatch d = inline("u1", "t1", doc("d1")).build();
    offer(d);
    ClientStream a = new ClientStream(stub).hello(MODULE);
    a.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setNoOp(
                    NoOpResult.newBuilder().setReason(NoOpReason.NO_OP_REASON_NOTHING_TO_DO))));
    offer(d);

    ClientStream b = new ClientStream(stub).hello(MODULE);
    assertThat(b.responses).isEmpty();
    assertThat(gateway.counters().drainedByReason()).containsEntry("already-settled", 1L);
    clock.advance(Duration.ofSeconds(5));
    assertThat(b.last().hasNoWork()).isTrue();
  }

  @Test
  void afterAGatewayRestartARedeliveredRecordOfASettledHopIsDrainedByItsTokenNotServed()
      throws Exception {
    WorkDispatch settled = inline("u1", "t1", doc("d1")).build();
    offer(settled);
    ClientStream a = new ClientStream(stub).hello(MODULE);
    a.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setNoOp(
                    NoOpResult.newBuilder().setReason(NoOpReason.NO_OP_REASON_NOTHING_TO_DO))));

    // A new gateway process: its settled-token memory is empty, and Kafka redelivers the record
    // (its offset was not committed yet) beside a live one.
    BufferedWorkSource redelivered = new BufferedWorkSource(100);
    ModuleWorkGateway restarted =
        new ModuleWorkGateway(
            redelivered,
            sfn,
            WorkScreen.allOf(new DeadlineScreen(clock), new TaskTokenScreen(sfn)),
            new StoreWorkDocuments(h.store),
            clock,
            GatewaySettings.defaults());
    String name = InProcessServerBuilder.generateName();
    io.grpc.Server server2 =
        InProcessServerBuilder.forName(name).directExecutor().addService(restarted).build().start();
    io.grpc.ManagedChannel channel2 =
        InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      assertThat(redelivered.offer(MODULE, "u1", settled.toByteArray())).isTrue();
      WorkDispatch live = inline("u2", "t2", doc("d2")).build();
      assertThat(redelivered.offer(MODULE, "u2", live.toByteArray())).isTrue();

      ClientStream b = new ClientStream(ModuleWorkServiceGrpc.newStub(channel2)).hello(MODULE);

      assertThat(b.responses).hasSize(1);
      assertThat(b.last().getWorkUnit().getWorkUnitId())
          .as("the settled hop never reaches a module; the live one is served")
          .isEqualTo("u2");
      assertThat(restarted.counters().drainedByReason()).containsEntry("token-gone", 1L);
    } finally {
      channel2.shutdownNow();
      server2.shutdownNow();
    }
  }

  // -------------------------------------------------------------------------------- screening

  @Test
  void screeningDrainsPoisonExpiredAndEndedRecordsAtPopSpeedAndServesTheNextLiveOne() {
    assertThat(source.offer(MODULE, "poison", new byte[] {(byte) 0xff, 0x01, 0x02})).isTrue();
    offer(
        inline("u-expired", "t-e", doc("d"))
            .setDeadline(Timestamp.newBuilder().setSeconds(T0.minusSeconds(1).getEpochSecond()))
            .build());
    offer(inline("u-blank", "", doc("d")).build());
    offer(inline("u-ended", "t-x", doc("d")).setExecutionArn("arn:x:ended").build());
    offer(
        inline("u-live", "t-live", doc("d"))
            .setDeadline(Timestamp.newBuilder().setSeconds(T0.plusSeconds(60).getEpochSecond()))
            .build());

    ClientStream s = new ClientStream(stub).hello(MODULE);

    assertThat(s.responses).hasSize(1);
    assertThat(s.last().getWorkUnit().getWorkUnitId()).isEqualTo("u-live");
    assertThat(gateway.counters().drainedByReason())
        .containsEntry("poison", 2L)
        .containsEntry("token-expired", 1L)
        .containsEntry("execution-ended", 1L);
    assertThat(sfn.calls).as("drained records cost Step Functions nothing").isEmpty();
    assertThat(source.inFlight()).isEqualTo(1);
  }

  @Test
  void aDocumentGoneFromTheStoreRejectsTheHopWithHydrationFailedAndServesTheNext()
      throws Exception {
    DocumentReference missing =
        DocumentReference.newBuilder()
            .setDocId("nope")
            .setAccountId(ACCOUNT)
            .setGraphId("intake:" + ACCOUNT)
            .setGraphAddressId("ds")
            .build();
    WorkDispatch.Builder gone = inline("u-gone", "t-gone", doc("nope"));
    offer(gone.setStream(gone.getStream().toBuilder().setDocumentRef(missing)).build());
    offer(inline("u-next", "t-next", doc("d")).build());

    ClientStream s = new ClientStream(stub).hello(MODULE);

    assertThat(s.last().getWorkUnit().getWorkUnitId()).isEqualTo("u-next");
    var call = sfn.calls("failure").getFirst();
    assertThat(call.token()).isEqualTo("t-gone");
    assertThat(call.error()).isEqualTo(ErrorNames.MODULE_REJECT);
    assertThat(json(call.json()).getFieldsOrThrow("reason").getStringValue())
        .isEqualTo("REJECT_REASON_HYDRATION_FAILED");
    assertThat(json(call.json()).getFieldsOrThrow("detail").getStringValue())
        .startsWith("stream.document_ref:");
  }

  @Test
  void aHydrationFailureThatCannotBeReportedRebuffersTheRecordAndTellsTheModuleToComeBack()
      throws Exception {
    DocumentReference missing =
        DocumentReference.newBuilder()
            .setDocId("nope")
            .setAccountId(ACCOUNT)
            .setGraphId("intake:" + ACCOUNT)
            .setGraphAddressId("ds")
            .build();
    WorkDispatch.Builder gone = inline("u-gone", "t-gone", doc("nope"));
    offer(gone.setStream(gone.getStream().toBuilder().setDocumentRef(missing)).build());
    sfn.unreachable(true);

    ClientStream s = new ClientStream(stub).hello(MODULE);

    assertThat(s.last().hasNoWork()).as("told to come back, not left spinning").isTrue();
    assertThat(gateway.counters().rebufferedUnits()).isEqualTo(1);
    assertThat(gateway.counters().drainedByReason()).doesNotContainKey("hydration-failed");

    sfn.unreachable(false);
    ClientStream again = new ClientStream(stub).hello(MODULE);
    assertThat(again.responses).as("the rejected hop reaches no module").isEmpty();
    assertThat(sfn.calls("failure"))
        .singleElement()
        .satisfies(
            call -> {
              assertThat(call.token()).isEqualTo("t-gone");
              assertThat(call.error()).isEqualTo(ErrorNames.MODULE_REJECT);
            });
    assertThat(gateway.counters().drainedByReason()).containsEntry("hydration-failed", 1L);
  }

  // ------------------------------------------------------------------------------ bad requests

  @Test
  void anAckNamingAnotherUnitIsRefusedAndTheRecordGoesBack() {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.send(ack(WorkAck.newBuilder().setWorkUnitId("u9").setNoOp(NoOpResult.getDefaultInstance())));

    var confirmed = s.last().getAckConfirmed();
    assertThat(confirmed.getAccepted()).isFalse();
    assertThat(confirmed.getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_INVALID_INPUT);
    assertThat(confirmed.getReject().getDetail())
        .startsWith("ack.work_unit_id:")
        .contains("u1", "u9");
    assertThat(source.keys(MODULE)).containsExactly("u1");
    assertThat(sfn.calls).isEmpty();
  }

  @Test
  void anAckWithoutAResultOrWithAForeignPayloadIsRefusedNamingTheField() {
    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.send(ack(WorkAck.newBuilder().setWorkUnitId("u1")));
    assertThat(s.last().getAckConfirmed().getReject().getDetail()).startsWith("ack.result:");

    ClientStream t = new ClientStream(stub).hello(MODULE);
    t.send(
        ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setUpdatedPayload(Any.pack(Struct.getDefaultInstance()))));
    assertThat(t.last().getAckConfirmed().getReject().getDetail())
        .startsWith("ack.updated_payload:")
        .contains("google.protobuf.Struct");
    assertThat(source.keys(MODULE)).containsExactly("u1");
    assertThat(sfn.calls).isEmpty();
  }

  @Test
  void protocolViolationsCloseTheStreamWithInvalidArgumentNamingTheField() {
    ClientStream blank = new ClientStream(stub).hello(" ");
    assertThat(blank.closedWith.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(blank.closedWith.getDescription()).startsWith("hello.module_id:");

    ClientStream early = new ClientStream(stub).send(ack(WorkAck.newBuilder().setWorkUnitId("x")));
    assertThat(early.closedWith.getDescription()).startsWith("ack:");

    ClientStream empty = new ClientStream(stub).send(WorkRequest.getDefaultInstance());
    assertThat(empty.closedWith.getDescription()).startsWith("message:");

    offer(inline("u1", "t1", doc("d1")).build());
    ClientStream twice = new ClientStream(stub).hello(MODULE).hello(MODULE);
    assertThat(twice.closedWith.getDescription()).startsWith("hello:");
    assertThat(source.keys(MODULE)).as("the unit it held went back").containsExactly("u1");
  }

  @Test
  void theSettingsRefuseNonPositiveDurations() {
    assertThatThrownBy(
            () -> new GatewaySettings(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessageContaining("noWorkWait");
    assertThatThrownBy(() -> new BufferedWorkSource(0)).hasMessageContaining("capacityPerModule");
  }

  @Test
  void everyWaitIsAbandonedOnceTheStreamEnds() {
    ClientStream s = new ClientStream(stub).hello(MODULE);
    s.requests.onError(new RuntimeException("gone"));
    assertThat(clock.pendingWaits()).isZero();
    offer(inline("u1", "t1", doc("d1")).build());
    assertThat(source.keys(MODULE)).containsExactly("u1");
  }

  // ------------------------------------------------------------------------ with the real SDK

  @Test
  void aWorkerKilledMidWorkLosesNothingAndTheNextWorkerCompletesTheUnitOnce() throws Exception {
    offer(inline("u1", "t1", doc("d1")).build());
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    ManagedChannel first = InProcessChannelBuilder.forName(serverName).directExecutor().build();
    ModuleWorker doomed =
        new ModuleWorker(
            first,
            WorkerConfig.of(MODULE, 1),
            work -> {
              started.countDown();
              never.await();
              return ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, "");
            },
            WorkerClock.system());
    doomed.start();
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(source.inFlight()).isEqualTo(1);

    first.shutdownNow();
    assertThat(source.keys(MODULE)).as("the unit went back at the head").containsExactly("u1");

    ManagedChannel second = InProcessChannelBuilder.forName(serverName).directExecutor().build();
    ModuleWorker survivor =
        new ModuleWorker(
            second,
            WorkerConfig.of(MODULE, 1),
            work -> ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_ALREADY_PROCESSED, "seen"),
            WorkerClock.system());
    survivor.start();
    try {
      Eventually.until("the survivor completed the unit", () -> survivor.completedUnits() >= 1);
      assertThat(survivor.completedUnits()).isEqualTo(1);
      assertThat(sfn.calls("success"))
          .extracting(RecordingTaskCompletion.Call::token)
          .containsExactly("t1");
      assertThat(source.inFlight()).isZero();
      assertThat(source.buffered(MODULE)).isZero();
    } finally {
      never.countDown();
      doomed.shutdownNow();
      survivor.shutdownNow();
      second.shutdownNow();
    }
  }

  @Test
  void aServedUnitContinuesTheDocumentsTraceThroughServeTheModulesProcessTheAckAndTheStore()
      throws Exception {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    Tracing gatewayTracing = Tracing.recordingWith(SimpleSpanProcessor.create(spans), "gateway");
    Tracing moduleTracing = Tracing.recordingWith(SimpleSpanProcessor.create(spans), MODULE);
    PipeDocStore tracedStore =
        new PipeDocStore(
            h.ledger,
            new S3BlobStore(h.clients),
            h.drives,
            new CachedAccountStatus(new PostgresAccountStatus(h.postgres.dataSource())),
            h.purgeEvents,
            java.time.Clock.systemUTC(),
            gatewayTracing.tracer());
    // The intake function's span, as FunctionWiring's TracedHandler records it.
    String intake =
        Spans.inSpan(
            gatewayTracing.tracer(),
            "intake",
            SpanKind.SERVER,
            Traceparent.parent(""),
            span -> Traceparent.current());
    PipeDoc original = SampleDocs.document("doc-trace", 3, 1024, "para");
    DocumentReference ref =
        h.store.save(Saves.intake(ACCOUNT, "ds", original).build()).getDocumentRef();
    WorkDispatch.Builder d = inline("u-trace", "t-trace", original);
    d.setStream(
            d.getStream().toBuilder()
                .setDocumentRef(ref)
                .setMetadata(d.getStream().getMetadata().toBuilder().setTraceparent(intake)))
        .addRequiredParts(PipeDocPart.PIPE_DOC_PART_CORE);
    BufferedWorkSource traced = new BufferedWorkSource(100);
    assertThat(traced.offer(MODULE, "u-trace", d.build().toByteArray())).isTrue();
    ModuleWorkGateway tracedGateway =
        new ModuleWorkGateway(
            traced,
            sfn,
            new DeadlineScreen(clock),
            new StoreWorkDocuments(tracedStore),
            clock,
            GatewaySettings.defaults(),
            WorkUnitLogs.NONE,
            ReceiptProducer.NONE,
            gatewayTracing.tracer());
    String name = InProcessServerBuilder.generateName();
    Server tracedServer =
        InProcessServerBuilder.forName(name).addService(tracedGateway).build().start();
    ManagedChannel tracedChannel = InProcessChannelBuilder.forName(name).build();
    ModuleWorker worker =
        new ModuleWorker(
            tracedChannel,
            WorkerConfig.of(MODULE, 1),
            work ->
                new ModuleOutcome.Updated(
                    work.document().toBuilder()
                        .setSearchMetadata(
                            work.document().getSearchMetadata().toBuilder().setTitle("traced"))
                        .build()),
            WorkerClock.system(),
            moduleTracing.tracer());
    worker.start();
    try {
      Eventually.until(
          "the ack's span ended",
          () ->
              spans.getFinishedSpanItems().stream()
                  .anyMatch(s -> s.getName().equals("gateway.ack")));
    } finally {
      worker.shutdownNow();
      tracedChannel.shutdownNow();
      tracedServer.shutdownNow();
    }

    List<SpanData> all = spans.getFinishedSpanItems();
    SpanData root = span(all, "intake");
    SpanData serve = span(all, "gateway.serve");
    SpanData process = span(all, MODULE + ".process");
    SpanData ackSpan = span(all, "gateway.ack");
    SpanData read = span(all, "store.read");
    SpanData save = span(all, "store.save");
    assertThat(all).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(root.getTraceId()));
    assertThat(serve.getParentSpanId()).isEqualTo(root.getSpanId());
    assertThat(read.getParentSpanId())
        .as("hydration is part of serving")
        .isEqualTo(serve.getSpanId());
    assertThat(process.getParentSpanId()).isEqualTo(serve.getSpanId());
    assertThat(process.getResource().getAttributes().asMap().values()).contains(MODULE);
    assertThat(process.getAttributes().get(Spans.DOC_ID)).isEqualTo("doc-trace");
    assertThat(List.of(serve, process, read, save))
        .as("each names its document as an X-Ray annotation, so the console can find it")
        .allSatisfy(
            s ->
                assertThat(s.getAttributes().get(Spans.XRAY_ANNOTATIONS))
                    .containsExactly("protomolt.doc_id"));
    assertThat(ackSpan.getParentSpanId()).isEqualTo(serve.getSpanId());
    assertThat(ackSpan.getAttributes().get(Spans.WORK_UNIT_ID)).isEqualTo("u-trace");
    assertThat(save.getParentSpanId())
        .as("the result is saved by the ack")
        .isEqualTo(ackSpan.getSpanId());
    assertThat(sfn.calls("success")).hasSize(1);
  }

  private static SpanData span(List<SpanData> spans, String name) {
    return spans.stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
  }

  static WorkResponse only(ClientStream s) {
    assertThat(s.responses).hasSize(1);
    return s.responses.getFirst();
  }
}
