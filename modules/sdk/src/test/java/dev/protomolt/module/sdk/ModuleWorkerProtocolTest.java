package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.module.sdk.ModuleWorker.SlotState;
import dev.protomolt.module.sdk.ScriptedGateway.ClientEvent;
import dev.protomolt.module.sdk.ScriptedGateway.Conversation;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkUnit;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's side of the Work conversation, against a scripted gateway over in-process gRPC.
 * Time moves only through {@link ManualWorkerClock}; waits on threads have a generous safety net
 * and never assert on elapsed time.
 */
class ModuleWorkerProtocolTest {

  private final ScriptedGateway gateway = new ScriptedGateway();
  private final ManualWorkerClock clock = new ManualWorkerClock();
  private final BlockingQueue<String> started = new LinkedBlockingQueue<>();
  private final Map<String, CompletableFuture<ModuleOutcome>> releases = new ConcurrentHashMap<>();
  private Server server;
  private ManagedChannel channel;
  private ModuleWorker worker;

  @BeforeEach
  void startGateway() throws IOException {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name).directExecutor().addService(gateway).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stopEverything() throws InterruptedException {
    if (worker != null) {
      worker.shutdownNow();
      worker.awaitTermination(Duration.ofSeconds(5));
    }
    channel.shutdownNow();
    server.shutdownNow();
  }

  /** A processor that announces each unit and waits until the test releases it with an outcome. */
  private ModuleOutcome heldProcessor(WorkContext work) throws Exception {
    work.progress("working on " + work.workUnitId());
    CompletableFuture<ModuleOutcome> release =
        releases.computeIfAbsent(work.workUnitId(), id -> new CompletableFuture<>());
    started.add(work.workUnitId());
    return release.get();
  }

  private void release(String workUnitId, ModuleOutcome outcome) {
    releases.computeIfAbsent(workUnitId, id -> new CompletableFuture<>()).complete(outcome);
  }

  private String awaitStarted() throws InterruptedException {
    String id = started.poll(ScriptedGateway.PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(id).as("a processor should have started").isNotNull();
    return id;
  }

  private ModuleWorker startWorker(int maxConcurrency, DocumentProcessor processor) {
    WorkerConfig config = WorkerConfig.of("parser", maxConcurrency).withInstanceId("parser-test-1");
    worker = new ModuleWorker(channel, config, processor, clock);
    worker.start();
    return worker;
  }

  private static PipeDoc doc(String id) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setBody("body of " + id))
        .build();
  }

  private static WorkUnit unit(String id, int heartbeatSeconds) {
    return WorkUnit.newBuilder()
        .setWorkUnitId(id)
        .setNodeId("node-parse")
        .setGraphId("graph-1")
        .setGraphVersion(3)
        .setHeartbeatIntervalSeconds(heartbeatSeconds)
        .setStream(PipeStream.newBuilder().setStreamId("s-" + id).setDocument(doc("doc-" + id)))
        .build();
  }

  private static void await(BooleanSupplier condition, String what) {
    Eventually.until(what, Duration.ofSeconds(ScriptedGateway.PATIENCE_SECONDS), condition);
  }

  private WorkAck ackOn(Conversation conversation) throws InterruptedException {
    WorkRequest request = conversation.next();
    assertThat(request.getMessageCase()).isEqualTo(WorkRequest.MessageCase.ACK);
    return request.getAck();
  }

  @Test
  void fullConversationCarriesTheUpdatedDocumentAndClosesTheStream() throws Exception {
    startWorker(
        1,
        work -> {
          work.log("parsed " + work.document().getDocId());
          return ModuleOutcome.updated(
              work.document().toBuilder()
                  .setSearchMetadata(
                      work.document().getSearchMetadata().toBuilder().setTitle("A title"))
                  .build());
        });

    Conversation first = gateway.nextConversation();
    WorkRequest hello = first.awaitHello();
    assertThat(hello.getHello().getModuleId()).isEqualTo("parser");
    assertThat(hello.getHello().getInstanceId()).isEqualTo("parser-test-1");

    first.sendWorkUnit(unit("wu-1", 15));
    WorkAck ack = ackOn(first);
    assertThat(ack.getWorkUnitId()).isEqualTo("wu-1");
    assertThat(ack.getResultCase()).isEqualTo(WorkAck.ResultCase.UPDATED_PAYLOAD);
    PipeDoc updated = ack.getUpdatedPayload().unpack(PipeDoc.class);
    assertThat(updated.getDocId()).isEqualTo("doc-wu-1");
    assertThat(updated.getSearchMetadata().getTitle()).isEqualTo("A title");
    // The line streams as the unit's log: the ack carries what no heartbeat did, at its offset.
    assertThat(ack.getLog().getText()).isEqualTo("2026-01-01T00:00:00Z INFO parsed doc-wu-1\n");
    assertThat(ack.getLog().getOffset()).isZero();
    assertThat(ack.getLogLinesList()).isEmpty();

    first.confirm("wu-1");
    await(() -> worker.completedUnits() == 1, "the confirmed unit to be counted");

    // One unit per stream: the worker asks again on a fresh stream.
    gateway.nextConversation().awaitHello();
  }

  @Test
  void heartbeatsAtTheUnitsIntervalWhileTheProcessorWorksAndNeverAfterTheAck() throws Exception {
    startWorker(1, this::heldProcessor);
    Conversation conversation = gateway.nextConversation();
    conversation.awaitHello();
    conversation.sendWorkUnit(unit("wu-hb", 10));
    awaitStarted();
    assertThat(clock.pendingWaits()).containsExactly(Duration.ofSeconds(10));

    clock.advance(Duration.ofSeconds(10));
    WorkRequest beat = conversation.next();
    assertThat(beat.getHeartbeat().getWorkUnitId()).isEqualTo("wu-hb");
    assertThat(beat.getHeartbeat().getProgress()).isEqualTo("working on wu-hb");

    clock.advance(Duration.ofSeconds(25));
    assertThat(conversation.next().getMessageCase()).isEqualTo(WorkRequest.MessageCase.HEARTBEAT);
    assertThat(conversation.next().getMessageCase()).isEqualTo(WorkRequest.MessageCase.HEARTBEAT);

    release("wu-hb", ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, "fine"));
    WorkAck ack = ackOn(conversation);
    assertThat(ack.getProcessingMs()).isEqualTo(35_000);
    await(() -> clock.pendingWaits().isEmpty(), "the heartbeat timer to stop");
    clock.advance(Duration.ofSeconds(60));
    assertThat(conversation.pendingEvents()).isZero();
  }

  @Test
  void heartbeatIntervalDefaultsToFifteenSecondsWhenTheUnitDoesNotSay() throws Exception {
    startWorker(1, this::heldProcessor);
    Conversation conversation = gateway.nextConversation();
    conversation.awaitHello();
    conversation.sendWorkUnit(unit("wu-default", 0));
    awaitStarted();
    assertThat(clock.pendingWaits()).containsExactly(Duration.ofSeconds(15));
    release("wu-default", ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, ""));
    ackOn(conversation);
  }

  @Test
  void noWorkAvailableHonoursRetryAfterBeforeAskingAgain() throws Exception {
    startWorker(2, this::heldProcessor);
    Conversation first = gateway.nextConversation();
    first.awaitHello();
    first.sendNoWork(2_500);
    await(() -> clock.pendingWaits().equals(List.of(Duration.ofMillis(2_500))), "the pause");

    clock.advance(Duration.ofMillis(2_499));
    assertThat(gateway.unclaimedConversations()).isZero();
    assertThat(worker.slotStates()).containsExactly(SlotState.PAUSED);

    clock.advance(Duration.ofMillis(1));
    Conversation second = gateway.nextConversation();
    second.awaitHello();

    // Without retry_after_ms the configured pause (1 s by default) applies.
    second.sendNoWork(0);
    await(() -> clock.pendingWaits().equals(List.of(Duration.ofSeconds(1))), "the default pause");
  }

  @Test
  void streamErrorsBackOffExponentiallyToThirtySecondsOnTheSameChannel() throws Exception {
    startWorker(1, this::heldProcessor);
    List<Long> expectedMs =
        List.of(500L, 1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L);
    for (long delayMs : expectedMs) {
      Conversation conversation = gateway.nextConversation();
      conversation.awaitHello();
      conversation.fail(Status.UNAVAILABLE.withDescription("gateway restarting"));
      await(
          () -> clock.pendingWaits().equals(List.of(Duration.ofMillis(delayMs))),
          "a reconnect wait of " + delayMs + " ms");
      assertThat(worker.slotStates()).containsExactly(SlotState.RECONNECTING);
      clock.advance(Duration.ofMillis(delayMs));
    }
    assertThat(channel.isShutdown()).isFalse();

    // A stream that gets an answer resets the back-off.
    Conversation healthy = gateway.nextConversation();
    healthy.awaitHello();
    healthy.sendNoWork(100);
    await(() -> clock.pendingWaits().equals(List.of(Duration.ofMillis(100))), "the pause");
    clock.advance(Duration.ofMillis(100));
    Conversation failing = gateway.nextConversation();
    failing.awaitHello();
    failing.fail(Status.INTERNAL);
    await(() -> clock.pendingWaits().equals(List.of(Duration.ofMillis(500))), "a reset back-off");
  }

  @Test
  void aStreamThatDiesMidWorkIsReplacedAndTheStaleAckIsNotSent() throws Exception {
    startWorker(1, this::heldProcessor);
    Conversation doomed = gateway.nextConversation();
    doomed.awaitHello();
    doomed.sendWorkUnit(unit("wu-lost", 15));
    awaitStarted();
    doomed.fail(Status.UNAVAILABLE.withDescription("connection reset"));
    release("wu-lost", ModuleOutcome.updated(doc("doc-wu-lost")));

    await(() -> clock.pendingWaits().contains(Duration.ofMillis(500)), "the reconnect wait");
    clock.advance(Duration.ofMillis(500));
    Conversation replacement = gateway.nextConversation();
    replacement.awaitHello();
    assertThat(doomed.pendingEvents()).isZero();
    assertThat(channel.isShutdown()).isFalse();
  }

  @Test
  void rampsUpToMaxConcurrencyAsWorkAppearsAndBackToOnePollerWhenIdle() throws Exception {
    startWorker(3, this::heldProcessor);
    Conversation[] busy = new Conversation[3];
    for (int i = 0; i < 3; i++) {
      busy[i] = gateway.nextConversation();
      busy[i].awaitHello();
      busy[i].sendWorkUnit(unit("wu-" + i, 15));
      awaitStarted();
    }
    // The ramp decision precedes the processor call, so this count is settled.
    assertThat(worker.slotCount()).isEqualTo(3);
    assertThat(worker.slotStates()).containsOnly(SlotState.BUSY);
    assertThat(gateway.unclaimedConversations()).isZero();

    for (int i = 0; i < 3; i++) {
      release("wu-" + i, ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, ""));
      ackOn(busy[i]);
      busy[i].confirm("wu-" + i);
      Conversation poll = gateway.nextConversation();
      poll.awaitHello();
      poll.sendNoWork(1_000);
    }
    await(() -> worker.slotCount() == 1, "ramp down to one poller");
    assertThat(worker.slotStates()).containsExactly(SlotState.PAUSED);

    clock.advance(Duration.ofSeconds(1));
    Conversation again = gateway.nextConversation();
    again.awaitHello();
    assertThat(worker.slotCount()).isEqualTo(1);
  }

  @Test
  void typedOutcomesTravelAsTheirOwnOneofBranch() throws Exception {
    Map<String, ModuleOutcome> outcomes =
        Map.of(
            "wu-noop", ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_ALREADY_PROCESSED, "seen it"),
            "wu-reject",
                ModuleOutcome.reject(
                    RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT, "mime_type image/png"),
            "wu-retry",
                new ModuleOutcome.RetryableFailure(
                    RetryReason.RETRY_REASON_RATE_LIMITED, "slow down", 750));
    startWorker(1, work -> outcomes.get(work.workUnitId()));

    Map<String, WorkAck> acks = new ConcurrentHashMap<>();
    for (String id : List.of("wu-noop", "wu-reject", "wu-retry")) {
      Conversation conversation = gateway.nextConversation();
      conversation.awaitHello();
      conversation.sendWorkUnit(unit(id, 15));
      acks.put(id, ackOn(conversation));
      conversation.confirm(id);
    }
    assertThat(acks.get("wu-noop").getNoOp().getReason())
        .isEqualTo(NoOpReason.NO_OP_REASON_ALREADY_PROCESSED);
    assertThat(acks.get("wu-noop").getNoOp().getDetail()).isEqualTo("seen it");
    assertThat(acks.get("wu-reject").getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT);
    assertThat(acks.get("wu-reject").getReject().getDetail()).isEqualTo("mime_type image/png");
    assertThat(acks.get("wu-retry").getRetryableFailure().getReason())
        .isEqualTo(RetryReason.RETRY_REASON_RATE_LIMITED);
    assertThat(acks.get("wu-retry").getRetryableFailure().getRetryAfterMs()).isEqualTo(750);
  }

  @Test
  void processorFailuresBecomeTypedAcksAndTheWorkerCarriesOn() throws Exception {
    startWorker(
        1,
        work ->
            switch (work.workUnitId()) {
              case "wu-io" -> throw new IOException("disk gone");
              case "wu-npe" -> throw new NullPointerException("no title");
              case "wu-rejected" ->
                  throw new DocumentRejectedException(
                      RejectReason.REJECT_REASON_INVALID_INPUT, "blob_bag.blob.data is empty");
              case "wu-null" -> null;
              default ->
                  ModuleOutcome.updated(work.document().toBuilder().setDocId("renamed").build());
            });

    Map<String, WorkAck> acks = new ConcurrentHashMap<>();
    for (String id : List.of("wu-io", "wu-npe", "wu-rejected", "wu-null", "wu-renamed")) {
      Conversation conversation = gateway.nextConversation();
      conversation.awaitHello();
      conversation.sendWorkUnit(unit(id, 15));
      acks.put(id, ackOn(conversation));
      conversation.confirm(id);
    }
    assertThat(acks.get("wu-io").getRetryableFailure().getReason())
        .isEqualTo(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY);
    assertThat(acks.get("wu-io").getRetryableFailure().getDetail())
        .contains("java.io.IOException: disk gone");
    assertThat(acks.get("wu-npe").getRetryableFailure().getReason())
        .isEqualTo(RetryReason.RETRY_REASON_UNSPECIFIED);
    assertThat(acks.get("wu-npe").getRetryableFailure().getDetail())
        .contains("NullPointerException: no title");
    assertThat(acks.get("wu-rejected").getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_INVALID_INPUT);
    assertThat(acks.get("wu-rejected").getReject().getDetail())
        .isEqualTo("blob_bag.blob.data is empty");
    assertThat(acks.get("wu-null").getReject().getReason())
        .isEqualTo(RejectReason.REJECT_REASON_MODULE_ERROR);
    assertThat(acks.get("wu-renamed").getReject().getDetail())
        .contains("updated_payload.doc_id \"renamed\"", "doc-wu-renamed");
  }

  @Test
  void aUnitWithoutAHydratedDocumentIsRejectedWithoutCallingTheProcessor() throws Exception {
    startWorker(1, this::heldProcessor);
    Conversation conversation = gateway.nextConversation();
    conversation.awaitHello();
    conversation.sendWorkUnit(
        unit("wu-ref", 15).toBuilder()
            .setStream(
                PipeStream.newBuilder()
                    .setDocumentRef(DocumentReference.newBuilder().setDocId("d1")))
            .build());
    WorkAck ack = ackOn(conversation);
    assertThat(ack.getReject().getReason()).isEqualTo(RejectReason.REJECT_REASON_HYDRATION_FAILED);
    assertThat(ack.getReject().getDetail()).contains("work_unit.stream.document is missing");
    assertThat(started).isEmpty();
  }

  @Test
  void aRefusedAckIsCountedAndTheWorkerKeepsPulling() throws Exception {
    startWorker(1, work -> ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, ""));
    Conversation conversation = gateway.nextConversation();
    conversation.awaitHello();
    conversation.sendWorkUnit(unit("wu-dup", 15));
    ackOn(conversation);
    conversation.refuse(
        "wu-dup",
        Reject.newBuilder()
            .setReason(RejectReason.REJECT_REASON_DUPLICATE_DELIVERY)
            .setDetail("token superseded")
            .build());
    gateway.nextConversation().awaitHello();
    assertThat(worker.refusedAcks()).isEqualTo(1);
    assertThat(worker.completedUnits()).isZero();
  }

  @Test
  void shutdownCancelsIdlePollersAndLetsBusyProcessorsAck() throws Exception {
    startWorker(2, this::heldProcessor);
    Conversation busy = gateway.nextConversation();
    busy.awaitHello();
    busy.sendWorkUnit(unit("wu-last", 15));
    awaitStarted();
    Conversation idle = gateway.nextConversation();
    idle.awaitHello();

    worker.shutdown();
    ClientEvent cancelled = idle.nextEvent();
    assertThat(cancelled).isInstanceOf(ClientEvent.Cancelled.class);
    assertThat(((ClientEvent.Cancelled) cancelled).status().getCode())
        .isEqualTo(Status.Code.CANCELLED);

    release("wu-last", ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOTHING_TO_DO, ""));
    assertThat(ackOn(busy).getWorkUnitId()).isEqualTo("wu-last");
    busy.confirm("wu-last");
    assertThat(worker.awaitTermination(Duration.ofSeconds(ScriptedGateway.PATIENCE_SECONDS)))
        .isTrue();
    assertThat(worker.completedUnits()).isEqualTo(1);
    assertThat(gateway.unclaimedConversations()).isZero();
  }

  @Test
  void shutdownNowInterruptsAProcessorWhichAcksARetryableFailure() throws Exception {
    startWorker(1, this::heldProcessor);
    Conversation busy = gateway.nextConversation();
    busy.awaitHello();
    busy.sendWorkUnit(unit("wu-interrupted", 15));
    awaitStarted();
    worker.shutdownNow();
    WorkAck ack = ackOn(busy);
    assertThat(ack.getRetryableFailure().getReason()).isEqualTo(RetryReason.RETRY_REASON_TIMEOUT);
    busy.confirm("wu-interrupted");
    assertThat(worker.awaitTermination(Duration.ofSeconds(ScriptedGateway.PATIENCE_SECONDS)))
        .isTrue();
  }

  static PipeDoc unpack(WorkAck ack) throws InvalidProtocolBufferException {
    return ack.getUpdatedPayload().unpack(PipeDoc.class);
  }
}
