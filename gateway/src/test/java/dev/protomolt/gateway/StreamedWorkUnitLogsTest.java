package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.core.doclog.TextWindows;
import dev.protomolt.proto.module.v1.Heartbeat;
import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A module's log streamed with its heartbeats and ack (LogText at the module's offsets) becomes
 * the work unit's document log on the durable store while the module is still working: each part
 * written and searchable the moment its window completes, repeats skipped by offset, gaps refused.
 */
class StreamedWorkUnitLogsTest {

  static StoreHarness h;

  PostgresDocumentLogStore logStore;
  DocumentWorkUnitLogs logs;
  BufferedWorkSource source;
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
    source = new BufferedWorkSource(100);
    logStore = new PostgresDocumentLogStore(h.postgres.dataSource());
    PostgresLogPartIndex index = new PostgresLogPartIndex(h.postgres.dataSource());
    logs = new DocumentWorkUnitLogs(new DocumentLog(logStore, index), index);
    ModuleWorkGateway gateway =
        new ModuleWorkGateway(
            source,
            new RecordingTaskCompletion(),
            d -> ScreenVerdict.SERVE,
            new StoreWorkDocuments(h.store),
            new ManualGatewayClock(WorkProtocolTest.T0),
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

  private static WorkRequest beat(String unit, String text, long offset) {
    return WorkRequest.newBuilder()
        .setHeartbeat(
            Heartbeat.newBuilder()
                .setWorkUnitId(unit)
                .setLog(LogText.newBuilder().setText(text).setOffset(offset)))
        .build();
  }

  private static String lines(String word, int length) {
    StringBuilder text = new StringBuilder("loading model ").append(word).append('\n');
    for (int i = 0; text.length() < length; i++) {
      text.append("page ").append(i).append(" parsed\n");
    }
    return text.substring(0, length);
  }

  @Test
  void partsAreSearchableWhileTheModuleWorksAndRepeatsDoNotDuplicate() {
    String unit = "su-" + UUID.randomUUID();
    String word = "tok" + UUID.randomUUID().toString().replace("-", "");
    String text = lines(word, 3100);
    ClientStream s = serve(WorkProtocolTest.inline(unit, "t1", WorkProtocolTest.doc(unit)).build());
    assertThat(s.last().getWorkUnit().getLogOffset()).isZero();
    LogKey key = LogKey.workUnitLog(WorkProtocolTest.ACCOUNT, unit);

    s.send(beat(unit, text.substring(0, 1200), 0));
    // The module has not acked: the first window is written and found by a word only it holds.
    assertThat(logs.search(word, 5))
        .extracting(LogPartIndex.Hit::key, LogPartIndex.Hit::index)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(key, 0));
    assertThat(logStore.load(key).orElseThrow().sealed()).isFalse();

    // A repeat that overlaps what the log holds adds only the new text.
    s.send(beat(unit, text.substring(900, 2000), 900));
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, unit)).contains(text.substring(0, 2000));

    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId(unit)
                .setUpdatedPayload(Any.pack(WorkProtocolTest.doc(unit)))
                .setLog(LogText.newBuilder().setText(text.substring(2000)).setOffset(2000))));
    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();

    String whole = text + "# end of attempt 0 of node parse on test-instance: CONTINUE\n";
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, unit)).contains(whole);
    assertThat(logStore.load(key).orElseThrow().sealed()).isTrue();
    assertThat(logStore.parts(key)).isEqualTo(TextWindows.cut(whole));
    assertThat(logs.failures()).isZero();
  }

  @Test
  void aGapIsRefusedAndTheUnitStillSettles() {
    String unit = "su-" + UUID.randomUUID();
    ClientStream s = serve(WorkProtocolTest.inline(unit, "t1", WorkProtocolTest.doc(unit)).build());
    s.send(beat(unit, "first line\n", 0));
    s.send(beat(unit, "lost the middle\n", 40));

    assertThat(logs.failures()).as("the gap was refused").isEqualTo(1);
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, unit)).contains("first line\n");
    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId(unit)
                .setUpdatedPayload(Any.pack(WorkProtocolTest.doc(unit)))
                .setLog(LogText.newBuilder().setText("last\n").setOffset(11))));
    assertThat(s.last().getAckConfirmed().getAccepted()).isTrue();
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, unit))
        .contains(
            "first line\nlast\n# end of attempt 0 of node parse on test-instance: CONTINUE\n");
  }

  @Test
  void aRetriedAttemptStreamsAfterTheFirstAttemptsText() {
    String unit = "su-" + UUID.randomUUID();
    WorkDispatch first = WorkProtocolTest.inline(unit, "t1", WorkProtocolTest.doc(unit)).build();
    ClientStream s = serve(first);
    s.send(beat(unit, "timeout talking to tika\n", 0));
    s.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId(unit)
                .setRetryableFailure(
                    RetryableFailure.newBuilder()
                        .setReason(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY))
                .setLog(LogText.newBuilder().setOffset(24))));
    String afterFirst = logs.read(WorkProtocolTest.ACCOUNT, unit).orElseThrow();
    assertThat(afterFirst).startsWith("timeout talking to tika\n# end of attempt 0");

    ClientStream again = serve(first.toBuilder().setTaskToken("t2").setAttempt(1).build());
    long offset = again.last().getWorkUnit().getLogOffset();
    assertThat(offset).isEqualTo(afterFirst.length());
    again.send(
        WorkProtocolTest.ack(
            WorkAck.newBuilder()
                .setWorkUnitId(unit)
                .setUpdatedPayload(Any.pack(WorkProtocolTest.doc(unit)))
                .setLog(LogText.newBuilder().setText("parsed\n").setOffset(offset))));
    assertThat(logs.read(WorkProtocolTest.ACCOUNT, unit))
        .contains(
            afterFirst + "parsed\n# end of attempt 1 of node parse on test-instance: CONTINUE\n");
    assertThat(logStore.load(LogKey.workUnitLog(WorkProtocolTest.ACCOUNT, unit)).orElseThrow())
        .extracting(state -> state.sealed())
        .isEqualTo(true);
    assertThat(logStore.parts(LogKey.workUnitLog(WorkProtocolTest.ACCOUNT, unit)))
        .extracting(DocumentPart::text)
        .containsExactly(logs.read(WorkProtocolTest.ACCOUNT, unit).orElseThrow());
  }
}
