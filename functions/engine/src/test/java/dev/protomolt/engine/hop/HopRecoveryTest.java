package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.config.v1.GraphSettings;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** Pinning across activations, queued work, its time to live and dead letters, on the local runtime. */
class HopRecoveryTest {

  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aDocumentFinishesOnVersionOneAfterVersionTwoIsActivatedMidFlight() throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v1 = h.activation.activate("g1", "c1", 1).versionArn();
    String execution = admit("doc-1");
    WorkDispatch parse = h.nextDispatch();

    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v2 = h.activation.activate("g1", "c1", 2).versionArn();
    assertThat(v2).isNotEqualTo(v1);
    assertThatThrownBy(() -> h.admin.delete("g1", "c1", 1))
        .as("version 1 is inactive but a document is still pinned to it")
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.FAILED_PRECONDITION))
        .hasMessageContaining(
            "graph 'g1' version 1 (state machine version " + v1 + ") has 1 running execution(s)");
    h.succeed(parse, parse.getStream());
    WorkDispatch chunk = h.nextDispatch();
    assertThat(chunk.getGraphVersion()).as("still pinned").isEqualTo(1);
    h.succeed(chunk, chunk.getStream());
    WorkDispatch index = h.nextDispatch();
    assertThat(index.getGraphVersion()).isEqualTo(1);
    h.succeed(index, index.getStream());

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.stateMachineVersionArn()).isEqualTo(v1);
    // A document arriving now runs version 2.
    String later = admit("doc-2");
    assertThat(h.sfn.describeExecution(b -> b.executionArn(later)).stateMachineVersionArn())
        .isEqualTo(v2);
    // Drained: version 1 can go now.
    h.admin.delete("g1", "c1", 1);
    assertThat(h.store.get("g1", 1)).isEmpty();
  }

  @Test
  void aQueuedHopWaitsPastManyHeartbeatIntervalsWithoutTimingOutOrBeingReDispatched()
      throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);
    String execution = admit("doc-1");
    WorkDispatch first = h.nextDispatch();
    assertThat(first.getHeartbeatSeconds())
        .as("the module's interval still travels to the gateway's watchdog")
        .isEqualTo(30);
    h.sfnClock.awaitPendingTimers(1, HopHarness.PATIENCE);
    // The runtime keeps the task's timeout and its token's expiry as two timers, both due then.
    assertThat(h.sfnClock.pendingDeadlines())
        .as("every timer is the queue time to live plus one attempt; no heartbeat timer")
        .isNotEmpty()
        .containsOnly(h.sfnClock.now().plusSeconds(86_400 + 900));

    // Nobody heartbeats the queued record for two hours: 240 of the old heartbeat windows.
    h.sfnClock.advance(Duration.ofHours(2));

    assertThat(h.events.dispatches).as("no re-dispatch").isEmpty();
    h.succeed(first, first.getStream());
    WorkDispatch chunk = h.nextDispatch();
    assertThat(chunk.getNodeId()).isEqualTo("chunk");
    assertThat(h.sfn.getExecutionHistory(b -> b.executionArn(execution)).events())
        .extracting(e -> e.typeAsString())
        .doesNotContain("TaskTimedOut");
  }

  @Test
  void aHopQueuedPastItsTimeToLiveDeadLettersOnceNamingTheTimeout() throws Exception {
    h.admin.create(
        linear("g1", 0).toBuilder()
            .setSettings(GraphSettings.newBuilder().setQueueTtlSeconds(3_600))
            .build(),
        OptionalLong.empty(),
        "ann");
    h.activation.activate("g1", "c1", 1);
    String execution = admit("doc-1");
    WorkDispatch parse = h.nextDispatch();
    h.sfnClock.awaitPendingTimers(1, HopHarness.PATIENCE);

    h.sfnClock.advance(Duration.ofSeconds(3_600 + 900));

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(done.error()).isEqualTo("ProtoMolt.DeadLettered");
    List<RecordingEventBus.Produced> dead = h.events.on(EventBus.dlqTopic("c1", "g1", "parse"));
    assertThat(dead).hasSize(1);
    DlqMessage message = DlqMessage.parseFrom(dead.getFirst().value());
    assertThat(message.getWorkUnitId()).isEqualTo(parse.getWorkUnitId());
    assertThat(message.getError().getCode())
        .as("the dead letter names the expired time to live")
        .isEqualTo("States.Timeout");
    assertThat(h.events.dispatches).as("an expired hop is not dispatched again").isEmpty();
    assertThatThrownBy(() -> h.succeed(parse, parse.getStream()))
        .as("its token is gone: a late module result changes nothing")
        .hasMessageContaining("Task");
  }

  @Test
  void aHopThatCannotCompleteIsDeadLetteredWithReplayCoordinates() throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);
    String execution = admit("doc-1");
    WorkDispatch parse = h.nextDispatch();
    // A module answering with a stream that has no body: Complete refuses it, not retryable.
    h.succeed(parse, parse.getStream().toBuilder().clearDocumentRef().build());

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(done.error()).isEqualTo("ProtoMolt.DeadLettered");
    List<RecordingEventBus.Produced> dead = h.events.on(EventBus.dlqTopic("c1", "g1", "parse"));
    assertThat(dead).hasSize(1);
    DlqMessage message = DlqMessage.parseFrom(dead.getFirst().value());
    assertThat(message.getExecutionArn()).isEqualTo(execution);
    assertThat(message.getNodeId()).isEqualTo("parse");
    assertThat(message.getWorkUnitId()).isEqualTo(parse.getWorkUnitId());
    assertThat(message.getGraphVersion()).isEqualTo(1);
    assertThat(message.getError().getCode()).isEqualTo(HopFailure.BAD_PAYLOAD);
    assertThat(message.getError().getMessage())
        .contains("carries neither document nor documentRef");
    assertThat(dead.getFirst().key()).isEqualTo(message.getDlqId());
    StepExecutionRecord last =
        h.events.on(EventBus.PIPELINE_EVENTS).stream()
            .map(
                p -> {
                  try {
                    return StepExecutionRecord.parseFrom(p.value());
                  } catch (InvalidProtocolBufferException e) {
                    throw new IllegalStateException(e);
                  }
                })
            .toList()
            .getLast();
    assertThat(last.getStatus()).isEqualTo(StepStatus.STEP_STATUS_DEAD_LETTERED);
  }

  @Test
  void aRedriveOfADeadLetteredModuleHopRunsThatHopAgainAndKeepsTheHopsBeforeIt() throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);
    String execution = admit("doc-1");
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream());
    String topic = EventBus.dlqTopic("c1", "g1", "chunk");

    // The chunker fails the hop twice: each failure dead-letters and ends the execution there.
    WorkDispatch chunk = h.nextDispatch();
    assertThat(chunk.getNodeId()).isEqualTo("chunk");
    for (int failure = 1; failure <= 2; failure++) {
      failModule(chunk);
      DescribeExecutionResponse failed = h.awaitClosed(execution);
      assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
      assertThat(failed.error()).isEqualTo("ProtoMolt.DeadLettered");
      assertThat(failed.cause())
          .isEqualTo("Node 'chunk' dead-lettered the document to " + topic + ".");
      assertThat(h.events.on(topic)).as("one dead letter per failure").hasSize(failure);
      assertThat(failed.redriveCount()).isEqualTo(failure - 1);

      h.sfn.redriveExecution(b -> b.executionArn(execution));
      WorkDispatch again = h.nextDispatch();
      assertThat(again.getNodeId())
          .as("the redrive re-dispatches the failed hop, not the parse before it")
          .isEqualTo("chunk");
      assertThat(again.getWorkUnitId()).isEqualTo(chunk.getWorkUnitId());
      chunk = again;
    }

    // Fixed: the chunker answers, and the walk finishes from there.
    h.succeed(chunk, chunk.getStream());
    WorkDispatch index = h.nextDispatch();
    assertThat(index.getNodeId()).isEqualTo("index");
    h.succeed(index, index.getStream());
    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status())
        .as("%s %s", done.error(), done.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.output()).contains("SINK_REACHED");
    assertThat(done.redriveCount()).isEqualTo(2);
    assertThat(h.events.on(topic)).as("the successful redrive wrote no dead letter").hasSize(2);
    assertThat(h.events.dispatches).as("nothing else was dispatched").isEmpty();
  }

  /** The gateway's answer for a module result it could not hand on: not retried, dead-lettered. */
  private void failModule(WorkDispatch work) {
    h.sfn.sendTaskFailure(
        b ->
            b.taskToken(work.getTaskToken())
                .error("Gateway.TaskOutputTooLarge")
                .cause("{\"reason\":\"REJECT_REASON_PAYLOAD_TOO_LARGE\",\"detail\":\"test\"}"));
  }

  @Test
  void reprocessingADeadLetterIsCappedAtThree() throws Exception {
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v1 = h.activation.activate("g1", "c1", 1).versionArn();
    String execution = admit("doc-1");
    WorkDispatch parse = h.nextDispatch();
    // The module answers without a body: the hop dead-letters, and every reprocess fails the same
    // way.
    h.succeed(parse, parse.getStream().toBuilder().clearDocumentRef().build());
    h.awaitClosed(execution);
    DlqReprocessService reprocess =
        new DlqReprocessService(h.store, new SfnStateMachines(h.sfn, EngineTestClients.ROLE));
    String topic = EventBus.dlqTopic("c1", "g1", "parse");

    for (int attempt = 1; attempt <= 3; attempt++) {
      DlqMessage latest = DlqMessage.parseFrom(h.events.on(topic).getLast().value());
      assertThat(latest.getReprocessCount()).isEqualTo(attempt - 1);
      String name = reprocess.reprocess(latest);
      String arn =
          v1.substring(0, v1.lastIndexOf(':')).replace(":stateMachine:", ":execution:")
              + ":"
              + name;
      DescribeExecutionResponse rerun = h.awaitClosed(arn);
      assertThat(rerun.stateMachineVersionArn())
          .as("reprocessed on the pinned version")
          .isEqualTo(v1);
      assertThat(rerun.error()).isEqualTo("ProtoMolt.DeadLettered");
      assertThat(h.events.on(topic)).hasSize(attempt + 1);
    }
    DlqMessage capped = DlqMessage.parseFrom(h.events.on(topic).getLast().value());
    assertThat(capped.getReprocessCount()).isEqualTo(3);
    assertThatThrownBy(() -> reprocess.reprocess(capped))
        .hasMessageContaining("was reprocessed 3 times, the cap of node 'parse' is 3");
  }

  private String admit(String docId) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en"))
            .build();
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                "ds-1",
                docId,
                PipeStream.newBuilder().setStreamId("s-" + docId).setDocument(doc).build()));
    return admitted.getFirst().executionArn();
  }
}
