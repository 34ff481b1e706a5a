package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * Complete prepares the next node itself where the edge allows (decision 1832), on the local Step
 * Functions runtime with the real hop services: the history shows which states ran.
 */
class InlinePrepareTest {

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
  void aLinearWalkRunsNoPrepareStateAndHandsEachModuleThePreparedWorkUnit() throws Exception {
    String execution = admit(linear("g1", 0), "doc-1");
    List<WorkDispatch> dispatched = new ArrayList<>();
    for (String node : List.of("parse", "chunk", "index")) {
      WorkDispatch work = h.nextDispatch();
      assertThat(work.getNodeId()).isEqualTo(node);
      // The work unit Prepare would have named: the node's, at the stream's hop count.
      assertThat(work.getWorkUnitId())
          .isEqualTo(
              HopContext.workUnitId(
                  new HopIdentity("g1", 1, "c1", node, execution), work.getStream()));
      dispatched.add(work);
      h.succeed(work, work.getStream());
    }

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText())
        .isEqualTo("SINK_REACHED");
    assertThat(statesEntered(execution))
        .as(
            "each Complete hands the next node's work on itself (decisions 1842, 1843) and"
                + " each routing choice goes on to that node's Complete; chunk's one"
                + " unconditional edge needs no choice (decision 1834)")
        .containsExactly(
            "Start",
            "in.Complete",
            "in.Next",
            "parse.Complete",
            "parse.Next",
            "chunk.Complete",
            "index.Complete");
    assertThat(lambdaTasksScheduled(execution))
        .as("one Complete per hop, each handing the next hop on: no Dispatch, no Prepare (1843)")
        .isEqualTo(4);
    assertThat(h.steps())
        .extracting(StepExecutionRecord::getNodeId, StepExecutionRecord::getStatus)
        .containsExactly(
            Tuple.tuple("in", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("parse", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("chunk", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("index", StepStatus.STEP_STATUS_SUCCESS));
    assertThat(h.steps().get(1).getWorkUnitId()).isEqualTo(dispatched.get(0).getWorkUnitId());
  }

  @Test
  void aPreparationThatFailsInCompleteFailsAgainOnItsOwnNodesPrepareAndDeadLettersThere()
      throws Exception {
    // A pre-mapping that fails on this document for real: its context has no such parameter.
    PipelineGraph graph = withParsePreMapping("context_params['absent']");
    String execution = admit(graph, "doc-2");

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(done.error()).isEqualTo("ProtoMolt.DeadLettered");
    assertThat(statesEntered(execution))
        .as("intake settled; the failure is met on parse's own Prepare")
        .containsSubsequence("in.Complete", "in.Next", "parse.Prepare", "parse.Dlq")
        .doesNotContain("in.Dlq", "parse.Work");
    assertThat(h.events.on(EventBus.dlqTopic("c1", "g1", "in"))).isEmpty();
    List<RecordingEventBus.Produced> dead = h.events.on(EventBus.dlqTopic("c1", "g1", "parse"));
    assertThat(dead).hasSize(1);
    DlqMessage message = DlqMessage.parseFrom(dead.getFirst().value());
    assertThat(message.getNodeId()).isEqualTo("parse");
    assertThat(message.getError().getMessage()).contains("pre_mappings[0]").contains("parse");
    assertThat(h.steps())
        .extracting(StepExecutionRecord::getNodeId, StepExecutionRecord::getStatus)
        .containsExactly(
            Tuple.tuple("in", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("parse", StepStatus.STEP_STATUS_DEAD_LETTERED));
    assertThat(h.events.dispatches).as("no module was asked").isEmpty();
  }

  @Test
  void theReclaimACompleteCarriesIsSentByTheDispatchOfTheNodeItPrepared() throws Exception {
    // parse → chunk over CACHE: chunk's Complete owes the reclaim of the CACHE copy it consumed.
    PipelineGraph.Builder b = linear("g1", 0).toBuilder();
    for (int i = 0; i < b.getEdgesCount(); i++) {
      if (b.getEdges(i).getToNodeId().equals("chunk")) {
        b.setEdges(
            i, b.getEdges(i).toBuilder().setTransportType(TransportType.TRANSPORT_TYPE_CACHE));
      }
    }
    String execution = admit(b.build(), "doc-3");
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream());
    WorkDispatch chunk = h.nextDispatch();
    assertThat(chunk.getStream().getDocumentRef().getKeep()).as("a CACHE copy").isFalse();
    h.succeed(chunk, chunk.getStream());
    WorkDispatch index = h.nextDispatch();

    List<RecordingEventBus.Produced> reclaims = h.events.on(CompleteService.RECLAIM_REQUESTS);
    assertThat(reclaims)
        .as("produced once chunk's Complete was recorded, by index's Dispatch")
        .singleElement()
        .satisfies(
            r ->
                assertThat(ReclaimRequest.parseFrom(r.value()).getDocumentRef())
                    .isEqualTo(chunk.getStream().getDocumentRef()));
    assertThat(index.getStream().getMetadata().getContextParamsMap().keySet())
        .as("the request travels no further than the Dispatch that sent it")
        .noneMatch(k -> k.startsWith(SettledReclaims.PARAM_PREFIX));
    h.succeed(index, index.getStream());
    assertThat(h.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(statesEntered(execution)).noneMatch(s -> s.endsWith(".Prepare"));
  }

  @Test
  void aRedriveOfAPreparedHopsFailedWorkRunsThatWorkAgainNotItsPrepare() throws Exception {
    String execution = admit(linear("g1", 0), "doc-4");
    WorkDispatch parse = h.nextDispatch();
    h.sfn.sendTaskFailure(
        b ->
            b.taskToken(parse.getTaskToken())
                .error("Gateway.TaskOutputTooLarge")
                .cause("{\"reason\":\"REJECT_REASON_PAYLOAD_TOO_LARGE\",\"detail\":\"test\"}"));
    assertThat(h.awaitClosed(execution).error()).isEqualTo("ProtoMolt.DeadLettered");

    h.sfn.redriveExecution(r -> r.executionArn(execution));
    WorkDispatch again = h.nextDispatch();
    assertThat(again.getNodeId()).isEqualTo("parse");
    assertThat(again.getWorkUnitId()).isEqualTo(parse.getWorkUnitId());
    assertThat(again.getStream()).isEqualTo(parse.getStream());
    assertThat(statesEntered(execution))
        .containsSubsequence("parse.DeadLettered", "parse.Redriven", "parse.Work")
        .doesNotContain("parse.Prepare");
  }

  @Test
  void aRejectOfAHandedOnHopIsRecordedAsThatNodesWithItsOwnWorkUnit() throws Exception {
    String execution = admit(linear("g1", 0), "doc-5");
    for (String node : List.of("parse", "chunk")) {
      WorkDispatch work = h.nextDispatch();
      assertThat(work.getNodeId()).isEqualTo(node);
      h.succeed(work, work.getStream());
    }
    WorkDispatch index = h.nextDispatch();
    assertThat(index.getNodeId()).isEqualTo("index");
    h.reject(index, "REJECT_REASON_INVALID_INPUT", "no title");

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = HopHarness.parse(done.output());
    assertThat(output.get("disposition").asText()).isEqualTo("REJECTED");
    assertThat(output.get("node").asText()).isEqualTo("index");
    assertThat(output.get("workUnitId").asText())
        .as("index's work unit, re-derived by chunk.NextRejected, not chunk's")
        .isEqualTo(index.getWorkUnitId());
    assertThat(statesEntered(execution))
        .containsSubsequence("chunk.Complete", "chunk.NextRejected", "index.Rejected")
        .doesNotContain("index.Work", "chunk.Dlq");
    assertThat(h.steps())
        .as("chunk.NextRejected re-derives index's input without recording chunk again")
        .extracting(StepExecutionRecord::getNodeId)
        .containsExactly("in", "parse", "chunk", "index");
    StepExecutionRecord rejected = h.steps().getLast();
    assertThat(rejected.getNodeId()).isEqualTo("index");
    assertThat(rejected.getStatus()).isEqualTo(StepStatus.STEP_STATUS_REJECTED);
    assertThat(rejected.getWorkUnitId()).isEqualTo(index.getWorkUnitId());
    assertThat(rejected.getError().getDetail()).contains("no title");
  }

  @Test
  void aRejectOfTheHopIntakeHandedOnIsRecordedAsTheFirstModulesWithItsOwnWorkUnit()
      throws Exception {
    String execution = admit(linear("g1", 0), "doc-7");
    WorkDispatch parse = h.nextDispatch();
    assertThat(parse.getNodeId()).isEqualTo("parse");
    h.reject(parse, "REJECT_REASON_INVALID_INPUT", "not a document");

    DescribeExecutionResponse done = h.awaitClosed(execution);
    JsonNode output = HopHarness.parse(done.output());
    assertThat(output.get("disposition").asText()).isEqualTo("REJECTED");
    assertThat(output.get("node").asText()).isEqualTo("parse");
    assertThat(output.get("workUnitId").asText())
        .as("parse's work unit, re-derived by in.NextRejected (decision 1843)")
        .isEqualTo(parse.getWorkUnitId());
    assertThat(statesEntered(execution))
        .containsSubsequence("in.Complete", "in.NextRejected", "parse.Rejected")
        .doesNotContain("parse.Work", "in.Dlq");
    assertThat(h.steps())
        .extracting(StepExecutionRecord::getNodeId, StepExecutionRecord::getStatus)
        .containsExactly(
            Tuple.tuple("in", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("parse", StepStatus.STEP_STATUS_REJECTED));
  }

  @Test
  void aHandedOnHopThatFailsIsDeadLetteredAtItsNodeAndARedriveRunsItsWorkAgain() throws Exception {
    String execution = admit(linear("g1", 0), "doc-6");
    for (String node : List.of("parse", "chunk")) {
      WorkDispatch work = h.nextDispatch();
      assertThat(work.getNodeId()).isEqualTo(node);
      h.succeed(work, work.getStream());
    }
    WorkDispatch index = h.nextDispatch();
    h.sfn.sendTaskFailure(
        b ->
            b.taskToken(index.getTaskToken())
                .error("Gateway.TaskOutputTooLarge")
                .cause("{\"reason\":\"REJECT_REASON_PAYLOAD_TOO_LARGE\",\"detail\":\"test\"}"));
    assertThat(h.awaitClosed(execution).error()).isEqualTo("ProtoMolt.DeadLettered");
    assertThat(h.events.on(EventBus.dlqTopic("c1", "g1", "chunk"))).isEmpty();
    List<RecordingEventBus.Produced> dead = h.events.on(EventBus.dlqTopic("c1", "g1", "index"));
    assertThat(dead).hasSize(1);
    DlqMessage message = DlqMessage.parseFrom(dead.getFirst().value());
    assertThat(message.getNodeId()).isEqualTo("index");
    assertThat(message.getError().getCode()).isEqualTo("Gateway.TaskOutputTooLarge");
    assertThat(statesEntered(execution))
        .containsSubsequence("chunk.Complete", "chunk.NextFailed", "index.Dlq")
        .doesNotContain("chunk.Dlq");

    h.sfn.redriveExecution(r -> r.executionArn(execution));
    WorkDispatch again = h.nextDispatch();
    assertThat(again.getNodeId()).isEqualTo("index");
    assertThat(again.getWorkUnitId()).isEqualTo(index.getWorkUnitId());
    assertThat(again.getStream()).isEqualTo(index.getStream());
    assertThat(statesEntered(execution))
        .containsSubsequence("index.DeadLettered", "index.Redriven", "index.Work");
    h.succeed(again, again.getStream());
    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText())
        .isEqualTo("SINK_REACHED");
  }

  private static PipelineGraph withParsePreMapping(String expression) {
    PipelineGraph.Builder b = linear("g1", 0).toBuilder();
    for (int i = 0; i < b.getNodesCount(); i++) {
      if (b.getNodes(i).getNodeId().equals("parse")) {
        b.setNodes(
            i,
            b.getNodes(i).toBuilder()
                .addPreMappings(
                    ProcessingMapping.newBuilder()
                        .setMappingId("from-context")
                        .setMappingType(MappingType.MAPPING_TYPE_CEL)
                        .setCelExpression(expression)
                        .setTargetFieldPath("search_metadata.title")));
      }
    }
    return b.build();
  }

  private String admit(PipelineGraph graph, String docId) {
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate(graph.getGraphId(), "c1", 1);
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

  private List<String> statesEntered(String executionArn) {
    List<String> names = new ArrayList<>();
    h.sfn
        .getExecutionHistoryPaginator(b -> b.executionArn(executionArn))
        .events()
        .forEach(
            e -> {
              if (e.stateEnteredEventDetails() != null) {
                names.add(e.stateEnteredEventDetails().name());
              }
            });
    return names;
  }

  private long lambdaTasksScheduled(String executionArn) {
    return h.sfn.getExecutionHistoryPaginator(b -> b.executionArn(executionArn)).events().stream()
        .filter(e -> e.type() == HistoryEventType.TASK_SCHEDULED)
        .count();
  }
}
