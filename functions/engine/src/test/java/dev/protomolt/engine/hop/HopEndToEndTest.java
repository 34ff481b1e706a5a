package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.linear;
import static dev.protomolt.core.graph.SampleGraphs.processor;
import static dev.protomolt.core.graph.SampleGraphs.sink;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Compiled graphs run end to end on the local Step Functions runtime with the real hop services
 * behind its Lambda invoker; the test plays the module by completing task tokens through SfnClient.
 */
class HopEndToEndTest {

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
  void aLinearGraphRunsToItsSinkStagingEveryPersistHop() throws Exception {
    String execution = admitAndGetExecution(linear("g1", 0), document("doc-1", "en"));

    WorkDispatch parse = h.nextDispatch();
    assertThat(parse.getModuleId()).isEqualTo("parser");
    assertThat(parse.getNodeId()).isEqualTo("parse");
    assertThat(parse.getGraphVersion()).isEqualTo(1);
    assertThat(parse.getExecutionArn()).isEqualTo(execution);
    assertThat(parse.getStream().hasDocumentRef()).as("PERSIST edge: by reference").isTrue();
    assertThat(parse.getStream().getDocumentRef().getKeep()).isTrue();
    // The module parses: it writes a title, which must travel on.
    PipeDoc parsed =
        document("doc-1", "en").toBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en").setTitle("Parsed"))
            .build();
    h.succeed(parse, parse.getStream().toBuilder().setDocument(parsed).build());

    WorkDispatch chunk = h.nextDispatch();
    assertThat(chunk.getModuleId()).isEqualTo("chunker");
    assertThat(chunk.getWorkUnitId()).isNotEqualTo(parse.getWorkUnitId());
    assertThat(
            h.staging
                .hydrate(chunk.getStream().getDocumentRef(), Set.of(), false)
                .getSearchMetadata()
                .getTitle())
        .isEqualTo("Parsed");
    h.succeed(chunk, chunk.getStream());
    WorkDispatch index = h.nextDispatch();
    assertThat(index.getModuleId()).isEqualTo("opensearch-sink");
    h.succeed(index, index.getStream());

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = HopHarness.parse(done.output());
    assertThat(output.get("disposition").asText()).isEqualTo("SINK_REACHED");
    assertThat(steps())
        .extracting(
            StepExecutionRecord::getNodeId,
            StepExecutionRecord::getHopNumber,
            StepExecutionRecord::getStatus)
        .containsExactly(
            Tuple.tuple("in", 1, StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("parse", 2, StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("chunk", 3, StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("index", 4, StepStatus.STEP_STATUS_SUCCESS));
    assertThat(h.staging.staged)
        .extracting(RecordingStaging.Staged::nodeId, RecordingStaging.Staged::keep)
        .containsExactly(
            Tuple.tuple("parse", true), Tuple.tuple("chunk", true), Tuple.tuple("index", true));
    assertThat(h.events.on(CompleteService.RECLAIM_REQUESTS))
        .as("PERSIST copies are kept")
        .isEmpty();
    assertThat(index.getStream().getMetadata().getProcessingPathList())
        .containsExactly("in", "parse", "chunk");
  }

  @Test
  void aFailedEdgeConditionEndsRoutingAfterTheModule() throws Exception {
    String execution = admitAndGetExecution(linear("g1", 0), document("doc-fr", "fr"));
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream());

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText())
        .isEqualTo("ROUTING_ENDED");
    assertThat(steps()).extracting(StepExecutionRecord::getNodeId).containsExactly("in", "parse");
    assertThat(steps().getLast().getDestinationsList()).isEmpty();
  }

  @Test
  void aModuleRejectIsRecordedAndEndsTheDocument() throws Exception {
    String execution = admitAndGetExecution(linear("g1", 0), document("doc-bad", "en"));
    WorkDispatch parse = h.nextDispatch();
    h.reject(parse, "UNSUPPORTED_CONTENT", "encrypted pdf");

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText()).isEqualTo("REJECTED");
    StepExecutionRecord rejected = steps().getLast();
    assertThat(rejected.getStatus()).isEqualTo(StepStatus.STEP_STATUS_REJECTED);
    assertThat(rejected.getWorkUnitId()).isEqualTo(parse.getWorkUnitId());
    assertThat(rejected.getError().getCode()).isEqualTo("Module.Reject");
    assertThat(rejected.getError().getDetail()).contains("UNSUPPORTED_CONTENT");
  }

  @Test
  void aDropFilterEndsTheDocumentWithARecordedDisposition() throws Exception {
    PipelineGraph graph =
        withParseFilter(
            FilterAction.FILTER_ACTION_DROP, "document.search_metadata.language == 'en'");
    String execution = admitAndGetExecution(graph, document("doc-fr", "fr"));

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText()).isEqualTo("DROPPED");
    assertThat(h.events.dispatches).as("the module never ran").isEmpty();
    assertThat(steps().getLast().getStatus()).isEqualTo(StepStatus.STEP_STATUS_DROPPED);
    assertThat(steps().getLast().getNodeId()).isEqualTo("parse");
  }

  @Test
  void aSkipFilterBypassesTheModuleAndRoutesOn() throws Exception {
    PipelineGraph graph =
        withParseFilter(
            FilterAction.FILTER_ACTION_SKIP, "document.search_metadata.language == 'de'");
    String execution = admitAndGetExecution(graph, document("doc-en", "en"));

    WorkDispatch first = h.nextDispatch();
    assertThat(first.getNodeId()).as("parse was skipped").isEqualTo("chunk");
    h.succeed(first, first.getStream());
    WorkDispatch index = h.nextDispatch();
    h.succeed(index, index.getStream());

    assertThat(h.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(steps())
        .filteredOn(s -> s.getNodeId().equals("parse"))
        .singleElement()
        .satisfies(s -> assertThat(s.getStatus()).isEqualTo(StepStatus.STEP_STATUS_SKIPPED));
  }

  @Test
  void aFanOutStartsChildrenWithDeterministicNamesOnThePinnedVersion() throws Exception {
    String execution = admitAndGetExecution(fanOutGraph(), document("doc-f", "en"));
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream());

    DescribeExecutionResponse parent = h.awaitClosed(execution);
    JsonNode output = HopHarness.parse(parent.output());
    assertThat(output.get("disposition").asText()).isEqualTo("FANNED_OUT");
    for (int i = 0; i < 2; i++) {
      WorkDispatch child = h.nextDispatch();
      assertThat(child.getStream().getMetadata().getParentWorkUnitId())
          .isEqualTo(parse.getWorkUnitId());
      h.succeed(child, child.getStream());
    }
    String machine =
        parent
            .stateMachineVersionArn()
            .substring(0, parent.stateMachineVersionArn().lastIndexOf(':'));
    List<String> expected =
        List.of(
            StateMachineNames.childExecutionName(parse.getWorkUnitId(), 0),
            StateMachineNames.childExecutionName(parse.getWorkUnitId(), 1));
    List<ExecutionListItem> children =
        h.sfn.listExecutions(b -> b.stateMachineArn(machine)).executions().stream()
            .filter(e -> expected.contains(e.name()))
            .toList();
    assertThat(children).hasSize(2);
    for (ExecutionListItem child : children) {
      DescribeExecutionResponse closed = h.awaitClosed(child.executionArn());
      assertThat(closed.stateMachineVersionArn()).isEqualTo(parent.stateMachineVersionArn());
      assertThat(HopHarness.parse(closed.output()).get("disposition").asText())
          .isEqualTo("SINK_REACHED");
    }
    // Each sibling got its own body at its own address; the consumed CACHE copy gets a reclaim
    // request.
    assertThat(h.staging.staged)
        .filteredOn(s -> !s.nodeId().equals("parse"))
        .extracting(RecordingStaging.Staged::nodeId, RecordingStaging.Staged::keep)
        .containsExactlyInAnyOrder(Tuple.tuple("archive", true), Tuple.tuple("side", false));
    assertThat(h.events.on(CompleteService.RECLAIM_REQUESTS))
        .singleElement()
        .satisfies(
            p -> {
              ReclaimRequest r = ReclaimRequest.parseFrom(p.value());
              assertThat(r.getDocumentRef().getGraphAddressId()).isEqualTo("side");
              assertThat(r.getDocumentRef().getKeep()).isFalse();
              assertThat(r.getWorkUnitId()).isEqualTo(p.key());
            });
  }

  @Test
  void aRetriedFanOutConvergesOnChildrenThatAlreadyStarted() throws Exception {
    PipelineGraph graph = fanOutGraph();
    String execution = admitAndGetExecution(graph, document("doc-r", "en"));
    WorkDispatch parse = h.nextDispatch();
    // As if an earlier attempt of this fan-out had already started child 0 before failing.
    String child0 = StateMachineNames.childExecutionName(parse.getWorkUnitId(), 0);
    String versionArn =
        h.sfn.describeExecution(b -> b.executionArn(execution)).stateMachineVersionArn();
    String childInput =
        "{\"node\":\"archive\",\"stream\":" + HopHarness.tree(parse.getStream()) + "}";
    h.sfn.startExecution(b -> b.stateMachineArn(versionArn).name(child0).input(childInput));
    h.succeed(parse, parse.getStream());

    DescribeExecutionResponse parent = h.awaitClosed(execution);
    assertThat(HopHarness.parse(parent.output()).get("disposition").asText())
        .isEqualTo("FANNED_OUT");
    String machine = versionArn.substring(0, versionArn.lastIndexOf(':'));
    List<String> names =
        h.sfn.listExecutions(b -> b.stateMachineArn(machine)).executions().stream()
            .map(ExecutionListItem::name)
            .toList();
    assertThat(names).filteredOn(child0::equals).as("no duplicate child").hasSize(1);
    assertThat(names).contains(StateMachineNames.childExecutionName(parse.getWorkUnitId(), 1));
  }

  private static PipelineGraph fanOutGraph() {
    return PipelineGraph.newBuilder()
        .setGraphId("g2")
        .setClusterId("c1")
        .setAccountId("acme")
        .setName("fan-out")
        .addNodes(intake("in", "ds-1"))
        .addNodes(processor("parse", "parser"))
        .addNodes(sink("archive", "plan-1"))
        .addNodes(sink("side", "plan-2"))
        .addEdges(edge("e1", "in", "parse"))
        .addEdges(edge("e2", "parse", "archive"))
        .addEdges(
            edge("e3", "parse", "side").toBuilder()
                .setTransportType(TransportType.TRANSPORT_TYPE_CACHE)
                .setPriority(1))
        .build();
  }

  private String admitAndGetExecution(PipelineGraph graph, PipeDoc doc) {
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate(graph.getGraphId(), "c1", 1);
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                "ds-1",
                doc.getDocId(),
                PipeStream.newBuilder()
                    .setStreamId("s-" + doc.getDocId())
                    .setDocument(doc)
                    .build()));
    assertThat(admitted).singleElement().satisfies(r -> assertThat(r.executionArn()).isNotEmpty());
    return admitted.getFirst().executionArn();
  }

  private static PipelineGraph withParseFilter(FilterAction action, String condition) {
    PipelineGraph graph = linear("g1", 0);
    PipelineGraph.Builder b = graph.toBuilder();
    for (int i = 0; i < b.getNodesCount(); i++) {
      if (b.getNodes(i).getNodeId().equals("parse")) {
        b.setNodes(
            i,
            b.getNodes(i).toBuilder()
                .addFilterConditions(
                    FilterCondition.newBuilder()
                        .setCondition(condition)
                        .setAction(action)
                        .setDescription("language gate")));
      }
    }
    // The sample's conditional edge would end routing for non-English documents; keep it
    // unconditional.
    for (int i = 0; i < b.getEdgesCount(); i++) {
      b.setEdges(i, b.getEdges(i).toBuilder().clearCondition());
    }
    return b.build();
  }

  private List<StepExecutionRecord> steps() {
    return h.events.on(EventBus.PIPELINE_EVENTS).stream()
        .map(
            p -> {
              try {
                return StepExecutionRecord.parseFrom(p.value());
              } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
              }
            })
        .toList();
  }

  private static PipeDoc document(String docId, String language) {
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setSearchMetadata(SearchMetadata.newBuilder().setLanguage(language))
        .build();
  }
}
