package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.InMemoryDocumentLogStore;
import dev.protomolt.core.doclog.InMemoryLogPartIndex;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * WorkAck.log_lines become the work unit's document log as acks arrive: readable whole, sealed and
 * searchable once the hop ends, one log across a unit's attempts, and never at the unit's expense.
 * In-process like {@link WorkProtocolTest}; the log store here is the in-memory implementation of
 * the port (the PostgreSQL one is held to the same contract in the repository module).
 */
class WorkUnitLogsTest {

  static StoreHarness h;

  ManualGatewayClock clock;
  BufferedWorkSource source;
  RecordingTaskCompletion sfn;
  InMemoryDocumentLogStore logStore;
  InMemoryLogPartIndex logIndex;
  DocumentWorkUnitLogs logs;
  Server server;
  ManagedChannel channel;
  ModuleWorkServiceGrpc.ModuleWorkServiceStub stub;

  @BeforeAll
  static void startStore() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(WorkProtocolTest.ACCOUNT));
  }

  @AfterAll
  static void stopStore() throws Exception {
    h.close();
  }

  @BeforeEach
  void startGateway() throws Exception {
    clock = new ManualGatewayClock(WorkProtocolTest.T0);
    source = new BufferedWorkSource(100);
    sfn = new RecordingTaskCompletion();
    logStore = new InMemoryDocumentLogStore();
    logIndex = new InMemoryLogPartIndex();
    logs = new DocumentWorkUnitLogs(new DocumentLog(logStore, logIndex), logIndex);
    ModuleWorkGateway gateway =
        new ModuleWorkGateway(
            source,
            sfn,
            d -> ScreenVerdict.SERVE,
            new StoreWorkDocuments(h.store),
            clock,
            GatewaySettings.defaults(),
            logs);
    String name = InProcessServerBuilder.generateName();
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

  private ClientStream serve(WorkDispatch d) {
    assertThat(source.offer(WorkProtocolTest.MODULE, d.getWorkUnitId(), d.toByteArray())).isTrue();
    ClientStream s = new ClientStream(stub).hello(WorkProtocolTest.MODULE);
    assertThat(s.last().getWorkUnit().getWorkUnitId()).isEqualTo(d.getWorkUnitId());
    return s;
  }

  @Test
  void theLinesOfASettledAckAreTheUnitsLogReadableAndSearchableOnceTheHopEnds() {
    WorkDispatch d = WorkProtocolTest.inline("u1", "t1", WorkProtocolTest.doc("d1")).build();
    ClientStream s = serve(d);
    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u1")
                .setUpdatedPayload(Any.pack(WorkProtocolTest.doc("d1")))
                .addLogLines("parsed text/plain: 41 characters")
                .addLogLines("language en, confidence 0.93")));

    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, "u1"))
        .contains(
            "# attempt 0 of node parse on test-instance: CONTINUE\n"
                + "parsed text/plain: 41 characters\n"
                + "language en, confidence 0.93\n");
    LogKey key = LogKey.workUnitLog(WorkProtocolTest.ACCOUNT, "u1");
    assertThat(logStore.load(key).orElseThrow().sealed()).as("the hop ended").isTrue();
    assertThat(logs.search("CONFIDENCE language", 5))
        .extracting(LogPartIndex.Hit::key)
        .containsExactly(key);
    assertThat(logs.linesKept()).isEqualTo(2);
  }

  @Test
  void aUnitRetriedAfterARetryableFailureKeepsOneLogAcrossItsAttempts() {
    WorkDispatch first = WorkProtocolTest.inline("u2", "t2a", WorkProtocolTest.doc("d2")).build();
    serve(first)
        .send(
            WorkProtocolTest.ack(
                WorkAck.newBuilder()
                    .setWorkUnitId("u2")
                    .setRetryableFailure(
                        RetryableFailure.newBuilder()
                            .setReason(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY))
                    .addLogLines("tika timed out")));
    LogKey key = LogKey.workUnitLog(WorkProtocolTest.ACCOUNT, "u2");
    assertThat(logStore.load(key).orElseThrow().sealed()).as("more attempts may come").isFalse();

    // Step Functions retries the hop: same work unit id, a new token and the next attempt.
    WorkDispatch second = first.toBuilder().setTaskToken("t2b").setAttempt(1).build();
    serve(second)
        .send(
            WorkProtocolTest.ack(
                WorkAck.newBuilder()
                    .setWorkUnitId("u2")
                    .setNoOp(
                        NoOpResult.newBuilder().setReason(NoOpReason.NO_OP_REASON_NOTHING_TO_DO))
                    .addLogLines("nothing to parse")));

    assertThat(logs.read(WorkProtocolTest.ACCOUNT, "u2"))
        .contains(
            "# attempt 0 of node parse on test-instance: RETRY RETRY_REASON_TRANSIENT_DEPENDENCY\n"
                + "tika timed out\n"
                + "# attempt 1 of node parse on test-instance: NO_OP NO_OP_REASON_NOTHING_TO_DO\n"
                + "nothing to parse\n");
    assertThat(logStore.load(key).orElseThrow().sealed()).isTrue();
  }

  @Test
  void aDuplicateAckKeepsNoLines() {
    WorkDispatch d = WorkProtocolTest.inline("u3", "t3", WorkProtocolTest.doc("d3")).build();
    ClientStream s = serve(d);
    sfn.expire("t3");
    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u3")
                .setNoOp(NoOpResult.newBuilder())
                .addLogLines("late line")));

    assertThat(s.last().getAckConfirmed().getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_DUPLICATE_DELIVERY);
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, "u3")).isEmpty();
  }

  @Test
  void aLogThatCannotBeKeptCostsTheUnitNothing() {
    // A work unit id that cannot name a log document (it holds a space): the log is refused, the
    // unit is still completed and confirmed.
    WorkDispatch d = WorkProtocolTest.inline("u 4", "t4", WorkProtocolTest.doc("d4")).build();
    ClientStream s = serve(d);
    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId("u 4")
                .setNoOp(NoOpResult.newBuilder())
                .addLogLines("a line with nowhere to go")));

    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    assertThat(sfn.calls("success"))
        .extracting(RecordingTaskCompletion.Call::token)
        .containsExactly("t4");
    assertThat(logs.failures()).isEqualTo(1);
    assertThat(logs.linesKept()).isZero();
  }

  @Test
  void anAccountThatCannotNameACollectionFilesTheLogUnderThePlatform() {
    WorkDispatch.Builder d = WorkProtocolTest.inline("u5", "t5", WorkProtocolTest.doc("d5"));
    d.getStreamBuilder().getMetadataBuilder().setAccountId("acme corp");
    serve(d.build())
        .send(
            WorkProtocolTest.ack(
                WorkAck.newBuilder()
                    .setWorkUnitId("u5")
                    .setNoOp(NoOpResult.newBuilder())
                    .addLogLines("kept anyway")));

    assertThat(logs.read(DocumentWorkUnitLogs.UNOWNED, "u5"))
        .hasValueSatisfying(text -> assertThat(text).endsWith("kept anyway\n"));
  }
}
