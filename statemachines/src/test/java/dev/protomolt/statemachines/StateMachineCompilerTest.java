package dev.protomolt.statemachines;

import static dev.protomolt.statemachines.Graphs.chain;
import static dev.protomolt.statemachines.Graphs.edge;
import static dev.protomolt.statemachines.Graphs.graph;
import static dev.protomolt.statemachines.Graphs.intake;
import static dev.protomolt.statemachines.Graphs.processor;
import static dev.protomolt.statemachines.Graphs.sink;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.proto.config.v1.DlqConfig;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.GraphSettings;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.RetryPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** Each compiler rule with its error text, and the shape of what a graph compiles to. */
class StateMachineCompilerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode compile(PipelineGraph graph) throws Exception {
    return JSON.readTree(StateMachineCompiler.compile(graph).definition());
  }

  private static GraphCompileException refusal(PipelineGraph graph) {
    try {
      StateMachineCompiler.compile(graph);
    } catch (GraphCompileException e) {
      return e;
    }
    throw new AssertionError("the compiler accepted a graph it should refuse");
  }

  // ---- first-hop retry of engine failures -------------------------------------------------

  @Test
  void theFirstHopRetriesTransientEngineFailuresFiveTimesFromTwoToSixtySeconds() throws Exception {
    JsonNode states = compile(chain(2)).get("States");
    for (String state : List.of("in.Complete", "p1.Prepare", "p1.Complete", "p1.Dlq")) {
      JsonNode retrier = states.get(state).get("Retry").get(0);
      assertThat(retrier.get("ErrorEquals").toString())
          .as(state)
          .contains(ErrorNames.ENGINE_TRANSIENT);
      assertThat(retrier.get("MaxAttempts").asInt()).as(state).isEqualTo(5);
      assertThat(retrier.get("IntervalSeconds").asInt()).as(state).isEqualTo(2);
      assertThat(retrier.get("MaxDelaySeconds").asInt()).as(state).isEqualTo(60);
      assertThat(retrier.get("BackoffRate").asDouble()).as(state).isEqualTo(2.0);
    }
    JsonNode later = states.get("p2.Prepare").get("Retry").get(0);
    assertThat(later.get("MaxAttempts").asInt())
        .as("a later hop keeps the short retry")
        .isEqualTo(3);
    assertThat(later.get("IntervalSeconds").asInt()).isEqualTo(1);
  }

  @Test
  void theGraphsFirstHopRetrySettingShapesTheEngineRetryToo() throws Exception {
    PipelineGraph graph =
        chain(1).toBuilder()
            .setSettings(
                GraphSettings.newBuilder()
                    .setFirstHopRetry(
                        RetryPolicy.newBuilder().setMaxAttempts(7).setInitialIntervalSeconds(3)))
            .build();
    JsonNode retrier = compile(graph).get("States").get("in.Complete").get("Retry").get(0);
    assertThat(retrier.get("MaxAttempts").asInt()).isEqualTo(7);
    assertThat(retrier.get("IntervalSeconds").asInt()).isEqualTo(3);
    assertThat(retrier.get("MaxDelaySeconds").asInt())
        .as("unset fields keep the default")
        .isEqualTo(60);
  }

  // ---- shape ---------------------------------------------------------------------------------

  @Test
  void startEntersEveryNodeAndRefusesAMissingOrUnknownNode() throws Exception {
    JsonNode states = compile(chain(2)).get("States");
    JsonNode start = states.get("Start");
    assertThat(start.get("Choices").get(0).get("Not").get("IsPresent").asBoolean()).isTrue();
    assertThat(start.get("Choices").get(0).get("Next").asText()).isEqualTo("UnknownNode");
    List<String> entries = new ArrayList<>();
    start
        .get("Choices")
        .forEach(
            c -> {
              if (c.has("StringEquals")) {
                entries.add(c.get("StringEquals").asText() + "=" + c.get("Next").asText());
              }
            });
    assertThat(entries)
        .containsExactly("in=in.Complete", "p1=p1.Prepare", "p2=p2.Prepare", "out=out.Prepare");
    assertThat(start.get("Default").asText()).isEqualTo("UnknownNode");
    assertThat(states.get("UnknownNode").get("Error").asText()).isEqualTo("ProtoMolt.UnknownNode");
  }

  @Test
  void aHandedOnHopsFailuresGoToTheNodeTheyBelongTo() throws Exception {
    JsonNode states = compile(chain(1)).get("States");
    JsonNode complete = states.get("p1.Complete");
    List<String> catches = new ArrayList<>();
    complete
        .get("Catch")
        .forEach(c -> catches.add(c.get("ErrorEquals") + "->" + c.get("Next").asText()));
    assertThat(catches)
        .containsExactly(
            "[\"dev.protomolt.engine.hop.RtbfTooLargeFailure\"]->p1.Rejected",
            "[\"Module.Reject\"]->p1.NextRejected",
            "[\"Module.Retryable\",\"Gateway.TaskOutputTooLarge\",\"States.Timeout\","
                + "\"States.HeartbeatTimeout\"]->p1.NextFailed",
            "[\"States.ALL\"]->p1.Dlq");
    List<String> retried = new ArrayList<>();
    complete.get("Retry").forEach(r -> retried.add(r.get("ErrorEquals").get(0).asText()));
    assertThat(retried)
        .as("this node's transient failures, then the next module's retryable ones")
        .containsExactly("Lambda.ServiceException", "Module.Retryable");
    for (String failed : List.of("p1.NextRejected", "p1.NextFailed")) {
      JsonNode state = states.get(failed);
      JsonNode payload = state.get("Parameters").get("Payload");
      assertThat(state.get("Resource").asText())
          .as("%s completes p1 again without dispatching", failed)
          .isEqualTo("arn:aws:states:::lambda:invoke");
      assertThat(payload.get("nodeId").asText()).isEqualTo("p1");
      assertThat(payload.get("directNext").asBoolean()).isTrue();
      assertThat(payload.has("dispatchNext")).isFalse();
      assertThat(payload.get("rederive").asBoolean())
          .as("p1's step was recorded by the run that handed on")
          .isTrue();
      assertThat(payload.get("error.$").asText()).isEqualTo("$.error");
      JsonNode selector = state.get("ResultSelector");
      assertThat(selector.get("node").asText()).isEqualTo("out");
      assertThat(selector.get("error.$").asText()).isEqualTo("$.Payload.error");
      assertThat(selector.get("prepared").asBoolean())
          .as("the mark out.Redriven goes back to out.Work by")
          .isTrue();
      assertThat(state.get("Catch").get(0).get("Next").asText()).isEqualTo("p1.Dlq");
    }
    assertThat(states.get("p1.NextRejected").get("Next").asText()).isEqualTo("out.Rejected");
    assertThat(states.get("p1.NextFailed").get("Next").asText()).isEqualTo("out.Dlq");
    assertThat(states.get("in.Complete").get("Next").asText())
        .as("an intake node keeps its routing choice (decision 1843)")
        .isEqualTo("in.Next");
    assertThat(states.get("in.NextFailed").at("/Parameters/Payload/outcome").asText())
        .as("intake's recovery completes intake again, as intake")
        .isEqualTo("INTAKE");
    assertThat(states.get("in.NextFailed").get("Next").asText()).isEqualTo("p1.Dlq");
    assertThat(states.get("in.NextRejected").get("Next").asText()).isEqualTo("p1.Rejected");
    List<String> intakeCatches = new ArrayList<>();
    states.get("in.Complete").get("Catch").forEach(c -> intakeCatches.add(c.get("Next").asText()));
    assertThat(intakeCatches)
        .as("an intake node has no Rejected state of its own")
        .containsExactly("in.NextRejected", "in.NextFailed", "in.Dlq");
  }

  @Test
  void aModuleNodeCompilesToPrepareWorkCompleteWithItsTerminals() throws Exception {
    JsonNode states = compile(chain(1)).get("States");
    assertThat(states.get("p1.Prepare").get("Next").asText()).isEqualTo("p1.Work");
    JsonNode work = states.get("p1.Work");
    assertThat(work.get("Resource").asText())
        .isEqualTo("arn:aws:states:::lambda:invoke.waitForTaskToken");
    assertThat(work.get("Parameters").get("FunctionName").asText())
        .isEqualTo("${DispatchFunctionArn}");
    assertThat(work.get("Parameters").get("Payload").get("taskToken.$").asText())
        .isEqualTo("$$.Task.Token");
    assertThat(work.get("Parameters").get("Payload").get("workUnitId.$").asText())
        .isEqualTo("$.workUnitId");
    assertThat(work.has("HeartbeatSeconds"))
        .as("queued work is never heartbeated; the gateway's watchdog owns claimed work")
        .isFalse();
    assertThat(work.get("TimeoutSeconds").asInt())
        .as("24 h of queue time to live plus one 900 s attempt")
        .isEqualTo(86_400 + 900);
    assertThat(work.get("Parameters").get("Payload").get("heartbeatSeconds").asInt()).isEqualTo(30);
    assertThat(work.get("Parameters").get("Payload").get("timeoutSeconds").asInt())
        .as("the dispatch deadline is the state's own timeout")
        .isEqualTo(86_400 + 900);
    assertThat(work.get("Next").asText()).isEqualTo("p1.Complete");
    assertThat(work.get("Catch").get(0).get("Next").asText()).isEqualTo("p1.Rejected");
    assertThat(work.get("Catch").get(0).get("ErrorEquals").toString())
        .isEqualTo("[\"Module.Reject\"]");
    assertThat(work.get("Catch").get(1).get("ErrorEquals").get(0).asText()).isEqualTo("States.ALL");
    assertThat(work.get("Catch").get(1).get("Next").asText()).isEqualTo("p1.Dlq");
    JsonNode complete = states.get("p1.Complete");
    assertThat(complete.get("Next").asText())
        .as("one unconditional edge into a node without filter or pre-mappings: handed on")
        .isEqualTo("out.Complete");
    assertThat(complete.get("Resource").asText())
        .as("the Complete dispatches out's work under its own token (decision 1842)")
        .isEqualTo("arn:aws:states:::lambda:invoke.waitForTaskToken");
    assertThat(complete.get("Parameters").get("FunctionName").asText())
        .isEqualTo("${CompleteFunctionArn}");
    assertThat(complete.get("Parameters").get("Payload").get("directNext").asBoolean()).isTrue();
    assertThat(complete.get("Parameters").get("Payload").has("prepareNext")).isFalse();
    JsonNode dispatchNext = complete.get("Parameters").get("Payload").get("dispatchNext");
    assertThat(dispatchNext.get("moduleId").asText()).isEqualTo("sink-out");
    assertThat(dispatchNext.get("taskToken.$").asText()).isEqualTo("$$.Task.Token");
    assertThat(dispatchNext.get("attempt.$").asText()).isEqualTo("$$.State.RetryCount");
    assertThat(dispatchNext.get("timeoutSeconds").asInt()).isEqualTo(86_400 + 900);
    assertThat(complete.get("TimeoutSeconds").asInt()).isEqualTo(86_400 + 900);
    assertThat(complete.get("ResultSelector").get("node").asText()).isEqualTo("out");
    assertThat(complete.get("ResultSelector").get("outcome.$").asText()).isEqualTo("$.outcome");
    assertThat(states.get("out.Work").get("Next").asText())
        .as("out.Work stays for redrives and entries through out.Prepare")
        .isEqualTo("out.Complete");
    assertThat(states.has("p1.Next")).isFalse();
    assertThat(states.has("p1.RoutingEnded")).isFalse();
    assertThat(states.get("p1.Rejected").get("End").asBoolean()).isTrue();
    assertThat(states.get("p1.Dlq").get("Next").asText()).isEqualTo("p1.DeadLettered");
    assertThat(states.get("p1.Dlq").get("Parameters").get("Payload").get("redriveCount.$").asText())
        .isEqualTo("$$.Execution.RedriveCount");
    assertThat(states.get("p1.Dlq").get("ResultSelector").get("redriveCount.$").asText())
        .isEqualTo("$.Payload.redriveCount");
    JsonNode deadLettered = states.get("p1.DeadLettered");
    assertThat(deadLettered.get("Type").asText())
        .as("a Task, so a redrive re-runs it rather than a Fail state (decision 1525)")
        .isEqualTo("Task");
    assertThat(deadLettered.get("Resource").asText())
        .isEqualTo("arn:aws:states:::lambda:invoke.waitForTaskToken");
    JsonNode hold = deadLettered.get("Parameters").get("Payload");
    assertThat(deadLettered.get("Parameters").get("FunctionName").asText())
        .isEqualTo("${DlqFunctionArn}");
    assertThat(hold.get("hold").asBoolean()).isTrue();
    assertThat(hold.get("deadLetteredAt.$").asText()).isEqualTo("$.deadLetter.redriveCount");
    assertThat(hold.get("redriveCount.$").asText()).isEqualTo("$$.Execution.RedriveCount");
    assertThat(hold.get("taskToken.$").asText()).isEqualTo("$$.Task.Token");
    assertThat(deadLettered.has("Catch")).as("nothing catches the dead letter").isFalse();
    assertThat(deadLettered.get("Next").asText()).isEqualTo("p1.Redriven");
    JsonNode sinkComplete = states.get("out.Complete");
    assertThat(sinkComplete.get("End").asBoolean())
        .as("a node no edge leaves ends the walk at its Complete")
        .isTrue();
    assertThat(sinkComplete.get("ResultSelector").get("disposition").asText())
        .isEqualTo("SINK_REACHED");
    assertThat(sinkComplete.get("ResultSelector").get("memoized.$").asText())
        .isEqualTo("$.Payload.memoized");
    assertThat(states.has("out.Next")).as("nothing is left to route").isFalse();
    assertThat(states.has("out.SinkReached")).isFalse();
  }

  @Test
  void aCompleteKeepsItsRoutingChoiceWhereRoutingCouldAnswerOtherwise() throws Exception {
    PipelineGraph chain = chain(2);
    Map<String, PipelineGraph> cases = new LinkedHashMap<>();
    cases.put("a condition on the edge", withEdge(chain, "p1", e -> e.setCondition("true")));
    cases.put("a hop limit on the edge", withEdge(chain, "p1", e -> e.setMaxHops(5)));
    cases.put(
        "a default hop limit",
        chain.toBuilder().setSettings(GraphSettings.newBuilder().setDefaultMaxHops(5)).build());
    cases.put("a pre-mapping on the target", withPreMapping(chain, "p2"));
    for (Map.Entry<String, PipelineGraph> c : cases.entrySet()) {
      JsonNode states = compile(c.getValue()).get("States");
      assertThat(states.get("p1.Complete").get("Next").asText())
          .as(c.getKey())
          .isEqualTo("p1.Next");
      assertThat(states.get("p1.Complete").get("Parameters").get("Payload").has("directNext"))
          .as(c.getKey())
          .isFalse();
      assertThat(states.get("p1.RoutingEnded").get("Parameters").get("disposition").asText())
          .as(c.getKey())
          .isEqualTo("ROUTING_ENDED");
    }
    assertThat(compile(chain).get("States").get("in.Complete").get("Next").asText())
        .as(
            "an intake settles a replay's memoized hops ahead (decision 1815), so it keeps its"
                + " choice")
        .isEqualTo("in.Next");
  }

  private static PipelineGraph withEdge(
      PipelineGraph graph, String from, Consumer<GraphEdge.Builder> change) {
    PipelineGraph.Builder b = graph.toBuilder();
    for (GraphEdge.Builder e : b.getEdgesBuilderList()) {
      if (e.getFromNodeId().equals(from)) {
        change.accept(e);
      }
    }
    return b.build();
  }

  private static PipelineGraph withPreMapping(PipelineGraph graph, String nodeId) {
    PipelineGraph.Builder b = graph.toBuilder();
    for (GraphNode.Builder n : b.getNodesBuilderList()) {
      if (n.getNodeId().equals(nodeId)) {
        n.addPreMappings(
            ProcessingMapping.newBuilder()
                .setMappingId("title")
                .setMappingType(MappingType.MAPPING_TYPE_CEL)
                .setCelExpression("'t'")
                .setTargetFieldPath("search_metadata.title"));
      }
    }
    return b.build();
  }

  @Test
  void aRedrivenDeadLetterGoesBackToTheStateThatFailedWithItsInput() throws Exception {
    JsonNode states = compile(chain(1)).get("States");
    JsonNode redriven = states.get("p1.Redriven");
    assertThat(redriven.get("Type").asText()).isEqualTo("Choice");
    List<String> routes = new ArrayList<>();
    redriven
        .get("Choices")
        .forEach(
            c ->
                routes.add(
                    (c.has("And") ? c.get("And").get(1) : c).get("Variable").asText()
                        + "->"
                        + c.get("Next").asText()));
    assertThat(routes)
        .as(
            "Rejected's catcher adds recordError, Work's input has Prepare's action, Complete's"
                + " outcome, or the previous Complete's prepared when it prepared the node")
        .containsExactly(
            "$.recordError->p1.Rejected",
            "$.outcome->p1.Complete",
            "$.action->p1.Work",
            "$.prepared->p1.Work");
    JsonNode prepared = redriven.get("Choices").get(3).get("And");
    assertThat(prepared.get(0).get("IsPresent").asBoolean())
        .as("a Prepare's answer or a replay's input has no prepared field")
        .isTrue();
    assertThat(prepared.get(1).get("BooleanEquals").asBoolean()).isTrue();
    assertThat(redriven.get("Default").asText())
        .as("a failed Prepare (or anything else) re-enters the node")
        .isEqualTo("p1.Prepare");

    JsonNode fanOut =
        compile(
                graph()
                    .addNodes(intake("in"))
                    .addNodes(sink("x"))
                    .addNodes(sink("y"))
                    .addEdges(edge("in", "x"))
                    .addEdges(edge("in", "y"))
                    .build())
            .get("States");
    JsonNode intakeHold = fanOut.get("in.DeadLettered");
    assertThat(intakeHold.get("Next").asText()).isEqualTo("in.Redriven");
    JsonNode intakeRedriven = fanOut.get("in.Redriven");
    assertThat(intakeRedriven.get("Choices")).hasSize(1);
    assertThat(intakeRedriven.get("Choices").get(0).get("Next").asText()).isEqualTo("in.FanOut");
    assertThat(intakeRedriven.get("Default").asText()).isEqualTo("in.Complete");

    JsonNode linear = compile(chain(1)).get("States");
    assertThat(linear.get("in.DeadLettered").get("Next").asText())
        .as("an intake node without a fan-out can only have failed at its Complete")
        .isEqualTo("in.Complete");
    assertThat(linear.has("in.Redriven")).isFalse();
  }

  @Test
  void theFirstHopRetriesFiveTimesFromTwoToSixtySecondsAndLaterHopsUseTheModulePolicy()
      throws Exception {
    JsonNode states = compile(chain(2)).get("States");
    JsonNode first = states.get("p1.Work").get("Retry");
    assertThat(first)
        .as("the Lambda retrier and the module retrier; a timeout is not retried")
        .hasSize(2);
    assertThat(first.get(1).get("MaxAttempts").asInt()).isEqualTo(5);
    assertThat(first.get(1).get("IntervalSeconds").asInt()).isEqualTo(2);
    assertThat(first.get(1).get("MaxDelaySeconds").asInt()).isEqualTo(60);
    assertThat(first.get(1).get("ErrorEquals").toString()).isEqualTo("[\"Module.Retryable\"]");
    assertThat(first.get(1).get("JitterStrategy").asText()).isEqualTo("FULL");
    assertThat(states.get("p2.Work").get("Retry").get(1).get("MaxAttempts").asInt()).isEqualTo(3);
  }

  @Test
  void nodeTimingOverridesGraphSettingsWhichOverrideDefaults() throws Exception {
    PipelineGraph graph =
        graph()
            .setSettings(
                GraphSettings.newBuilder()
                    .setDefaultHeartbeatSeconds(40)
                    .setDefaultTimeoutSeconds(700)
                    .setQueueTtlSeconds(3600)
                    .setModuleRetry(RetryPolicy.newBuilder().setMaxAttempts(7)))
            .addNodes(
                processor("a")
                    .setTimeoutSeconds(1200)
                    .setRetryPolicy(RetryPolicy.newBuilder().setBackoffRate(3.0)))
            .addNodes(processor("b"))
            .addEdges(edge("a", "b"))
            .build();
    JsonNode states = compile(graph).get("States");
    JsonNode aPayload = states.get("a.Work").get("Parameters").get("Payload");
    assertThat(aPayload.get("heartbeatSeconds").asInt()).isEqualTo(40);
    assertThat(states.get("a.Work").get("TimeoutSeconds").asInt()).isEqualTo(3600 + 1200);
    assertThat(states.get("a.Work").get("Retry").get(1).get("BackoffRate").asDouble())
        .isEqualTo(3.0);
    assertThat(states.get("a.Work").get("Retry").get(1).get("MaxAttempts").asInt())
        .as("a has no incoming edge: first hop")
        .isEqualTo(5);
    assertThat(states.get("b.Work").get("TimeoutSeconds").asInt()).isEqualTo(3600 + 700);
    assertThat(states.get("b.Work").get("Retry").get(1).get("MaxAttempts").asInt()).isEqualTo(7);
  }

  @Test
  void nextHasOneBranchPerTargetInPriorityOrderAndFansOutOnSeveralDestinations() throws Exception {
    PipelineGraph graph =
        graph()
            .addNodes(processor("p"))
            .addNodes(sink("x"))
            .addNodes(sink("y"))
            .addNodes(sink("z"))
            .addEdges(edge("p", "x").setPriority(30))
            .addEdges(edge("p", "y").setPriority(10))
            .addEdges(edge("p", "z").setPriority(20))
            .build();
    JsonNode states = compile(graph).get("States");
    JsonNode choices = states.get("p.Next").get("Choices");
    assertThat(choices.get(1).get("NumericGreaterThan").asInt()).isEqualTo(1);
    assertThat(choices.get(1).get("Next").asText()).isEqualTo("p.FanOut");
    // A Complete that settled memoized nodes after this one enters at the node it names.
    assertThat(choices.get(2).get("Variable").asText()).isEqualTo("$.skipped");
    assertThat(choices.get(2).get("Next").asText()).isEqualTo("Start");
    // Each target without a filter first takes the stream its Complete prepared to its Work
    // (decision 1832), then anything else to its Prepare.
    List<String> branches = new ArrayList<>();
    for (int i = 3; i < choices.size(); i++) {
      JsonNode c = choices.get(i);
      branches.add(
          c.has("And")
              ? c.get("And").get(0).get("StringEquals").asText()
                  + "&"
                  + c.get("And").get(1).get("Variable").asText()
                  + "->"
                  + c.get("Next").asText()
              : c.get("StringEquals").asText() + "->" + c.get("Next").asText());
    }
    assertThat(branches)
        .containsExactly(
            "y&$.prepared->y.Work",
            "y->y.Prepare",
            "z&$.prepared->z.Work",
            "z->z.Prepare",
            "x&$.prepared->x.Work",
            "x->x.Prepare");
    JsonNode fanOut = states.get("p.FanOut");
    assertThat(fanOut.get("Type").asText()).isEqualTo("Map");
    JsonNode start = fanOut.get("ItemProcessor").get("States").get("p.StartChild");
    assertThat(start.get("Resource").asText()).isEqualTo("arn:aws:states:::states:startExecution");
    assertThat(start.get("Parameters").get("StateMachineArn").asText())
        .isEqualTo("${StateMachineVersionArn}");
    assertThat(start.get("Parameters").get("Name.$").asText()).isEqualTo("$.executionName");
    assertThat(start.get("Catch").get(0).get("ErrorEquals").get(0).asText())
        .isEqualTo("StepFunctions.ExecutionAlreadyExistsException");
    assertThat(states.get("p.FannedOut").get("Parameters").get("disposition").asText())
        .isEqualTo("FANNED_OUT");
    assertThat(states.has("x.FanOut")).as("a node with one edge never fans out").isFalse();
  }

  @Test
  void filtersCompileToDropAndSkipBranchesAndAnUnspecifiedActionDrops() throws Exception {
    PipelineGraph graph =
        graph()
            .addNodes(
                processor("p")
                    .addFilterConditions(
                        FilterCondition.newBuilder()
                            .setCondition("a")
                            .setAction(FilterAction.FILTER_ACTION_SKIP))
                    .addFilterConditions(FilterCondition.newBuilder().setCondition("b")))
            .build();
    JsonNode states = compile(graph).get("States");
    assertThat(states.get("p.Prepare").get("Next").asText()).isEqualTo("p.Filter");
    JsonNode filter = states.get("p.Filter");
    assertThat(filter.get("Choices").get(0).get("StringEquals").asText()).isEqualTo("DROP");
    assertThat(filter.get("Choices").get(0).get("Next").asText()).isEqualTo("p.Dropped");
    assertThat(filter.get("Choices").get(1).get("StringEquals").asText()).isEqualTo("SKIP");
    assertThat(filter.get("Default").asText()).isEqualTo("p.Work");
    assertThat(states.get("p.Skip").get("Parameters").get("outcome").asText()).isEqualTo("SKIPPED");
    assertThat(states.get("p.Skip").get("Next").asText()).isEqualTo("p.Complete");
    assertThat(states.get("p.Dropped").get("Parameters").get("disposition").asText())
        .isEqualTo("DROPPED");
  }

  @Test
  void onlyATargetWithoutAFilterIsEnteredAtItsWorkWhenTheCompleteBeforePreparedIt()
      throws Exception {
    PipelineGraph graph =
        graph()
            .addNodes(intake("in"))
            .addNodes(processor("plain"))
            .addNodes(
                processor("filtered")
                    .addFilterConditions(
                        FilterCondition.newBuilder()
                            .setCondition("a")
                            .setAction(FilterAction.FILTER_ACTION_SKIP)))
            .addEdges(edge("in", "plain"))
            .addEdges(edge("plain", "filtered"))
            .build();
    JsonNode states = compile(graph).get("States");
    assertThat(states.get("in.Complete").at("/Parameters/Payload/prepareNext").asBoolean())
        .as("the machine asks Complete to prepare: it has the branch for it")
        .isTrue();
    assertThat(states.get("in.Complete").at("/Parameters/Payload/dispatchNext/nodeId").asText())
        .as("and to hand the one node it may prepare on (decision 1843)")
        .isEqualTo("plain");
    assertThat(states.get("in.Complete").has("ResultSelector"))
        .as("a module result and a routing answer are told apart by the choice after it")
        .isFalse();
    assertThat(states.get("in.Next").get("Choices").get(0).get("Variable").asText())
        .isEqualTo("$.outcome");
    assertThat(states.get("in.Next").get("Choices").get(0).get("Next").asText())
        .isEqualTo("plain.Complete");
    assertThat(states.get("plain.Complete").get("Resource").asText())
        .as("its only target has a filter: it hands nothing on")
        .isEqualTo("arn:aws:states:::lambda:invoke");
    assertThat(states.get("plain.Complete").at("/Parameters/Payload").has("prepareNext"))
        .as("its only target has a filter: nothing to prepare")
        .isFalse();
    assertThat(states.get("in.Next").get("Choices"))
        .as("the prepared branch comes before the unprepared one")
        .extracting(c -> c.get("Next").asText())
        .containsSubsequence("plain.Work", "plain.Prepare");
    assertThat(states.get("plain.Next").get("Choices"))
        .as("a filter's answer needs its choice: its Prepare always runs")
        .extracting(c -> c.get("Next").asText())
        .contains("filtered.Prepare")
        .doesNotContain("filtered.Work");
    assertThat(states.get("filtered.Redriven").get("Choices")).noneMatch(c -> c.has("And"));
    assertThat(states.get("Start").get("Choices"))
        .as("replays, fan-out children and redrives enter at the node's Prepare")
        .extracting(c -> c.get("Next").asText())
        .contains("plain.Prepare", "filtered.Prepare")
        .noneMatch(next -> next.endsWith(".Work"));
  }

  @Test
  void deadLetterCarriesTheTopicSaveOnErrorAndWhetherToPublish() throws Exception {
    PipelineGraph graph =
        graph()
            .addNodes(processor("plain"))
            .addNodes(
                processor("saving")
                    .setSaveOnError(true)
                    .setDlqConfig(
                        DlqConfig.newBuilder()
                            .setEnabled(true)
                            .setTopicOverride("t.override")
                            .setMaxReprocessCount(9)))
            .addNodes(processor("quiet").setDlqConfig(DlqConfig.newBuilder().setEnabled(false)))
            .build();
    JsonNode states = compile(graph).get("States");
    JsonNode plain = states.get("plain.Dlq").get("Parameters").get("Payload");
    assertThat(plain.get("topic").asText()).isEqualTo("pipestream.c.g.plain.dlq");
    assertThat(plain.get("publish").asBoolean()).isTrue();
    assertThat(plain.get("saveOnError").asBoolean()).isFalse();
    assertThat(plain.get("maxReprocessCount").asInt()).isEqualTo(3);
    JsonNode saving = states.get("saving.Dlq").get("Parameters").get("Payload");
    assertThat(saving.get("topic").asText()).isEqualTo("t.override");
    assertThat(saving.get("saveOnError").asBoolean()).isTrue();
    assertThat(saving.get("maxReprocessCount").asInt()).isEqualTo(9);
    assertThat(states.get("quiet.Dlq").get("Parameters").get("Payload").get("publish").asBoolean())
        .isFalse();
  }

  @Test
  void oddAndLongNodeIdsGetSafeDistinctStateNames() throws Exception {
    String long1 = "x".repeat(100) + "/one";
    String long2 = "x".repeat(100) + "/two";
    PipelineGraph graph =
        graph()
            .addNodes(processor(long1))
            .addNodes(processor(long2))
            .addNodes(processor("a b"))
            .addNodes(processor("a_b"))
            .addEdges(edge(long1, long2))
            .build();
    JsonNode states = compile(graph).get("States");
    List<String> names = new ArrayList<>();
    states.fieldNames().forEachRemaining(names::add);
    assertThat(names).allMatch(n -> n.length() <= 80).doesNotHaveDuplicates();
    assertThat(names).contains("a_b.Prepare");
    assertThat(names.stream().filter(n -> n.endsWith(".Prepare")).count()).isEqualTo(4);
    assertThat(states.get("Start").get("Choices").get(1).get("StringEquals").asText())
        .isEqualTo(long1);
  }

  // ---- refusals --------------------------------------------------------------------------------

  @Test
  void refusesAGraphWithoutIdentityOrNodes() {
    GraphCompileException e = refusal(PipelineGraph.newBuilder().build());
    assertThat(e.problems())
        .extracting(CompileProblem::rule)
        .containsExactly("graph-identity", "graph-identity", "graph-nodes");
    assertThat(e.getMessage())
        .contains("graph_id is blank; every engine Lambda needs it to resolve the pinned version")
        .contains("version is 0; only a stored version (1 or more) can be compiled")
        .contains("the graph has no nodes, so there is nothing to start at")
        .contains("3 problems");
  }

  @Test
  void refusesDuplicateAndEmptyNodeIds() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(processor("a"))
                .addNodes(processor("a"))
                .addNodes(processor(""))
                .build());
    assertThat(e.problems())
        .extracting(CompileProblem::toString)
        .containsExactly(
            "node 'a': node_id is used by more than one node; Start could not tell them apart"
                + " [node-id]",
            "nodes[2]: node_id is empty; Start needs an id to enter at [node-id]");
  }

  @Test
  void refusesAModuleNodeWithoutModuleAndANodeWithoutType() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(processor("p").clearModuleId())
                .addNodes(processor("u").setNodeType(NodeType.NODE_TYPE_UNSPECIFIED))
                .build());
    assertThat(e.problems())
        .extracting(CompileProblem::toString)
        .containsExactly(
            "node 'p': a PROCESSOR node needs module_id: its Work state dispatches to topic"
                + " pipestream.module.<module_id> [module-id]",
            "node 'u': node_type is NODE_TYPE_UNSPECIFIED; the compiler needs NODE_TYPE_INTAKE,"
                + " NODE_TYPE_PROCESSOR or NODE_TYPE_SINK to know which states to emit"
                + " [node-type]");
  }

  @Test
  void refusesEdgesToUnknownNodesAndIntoIntake() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(intake("in"))
                .addNodes(processor("p"))
                .addEdges(edge("p", "in"))
                .addEdges(edge("ghost", "p"))
                .addEdges(edge("p", "p").setMaxHops(-1).setEdgeId(""))
                .build());
    assertThat(e.problems())
        .extracting(CompileProblem::toString)
        .containsExactly(
            "edge 'p-in' (p -> in): an edge cannot enter an INTAKE node: documents enter intake"
                + " only by admission [edge-into-intake]",
            "edge 'ghost-p' (ghost -> p): from_node_id 'ghost' is not a node of this graph"
                + " [edge-endpoints]",
            "edge 'edges[2]' (p -> p): max_hops is -1; it must be positive, or 0 for the graph"
                + " default [non-negative]");
  }

  @Test
  void refusesFiltersAndPreMappingsOnIntake() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(
                    intake("in")
                        .addFilterConditions(FilterCondition.newBuilder().setCondition("true")))
                .build());
    assertThat(e.problems())
        .singleElement()
        .hasToString(
            "node 'in': an INTAKE node runs no module, so it has no Prepare step for"
                + " filter_conditions or pre_mappings; move them to the first processor"
                + " [intake-runs-no-module]");
  }

  @Test
  void refusesAHeartbeatThatIsNotBelowTheTimeoutNamingNodeAndState() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(processor("slow").setHeartbeatSeconds(60).setTimeoutSeconds(60))
                .build());
    assertThat(e.problems())
        .singleElement()
        .hasToString(
            "node 'slow': heartbeat_seconds (60) must be less than timeout_seconds (60); a"
                + " module that heartbeats no faster than its attempt may run is never watched"
                + " [heartbeat-below-timeout]");
  }

  @Test
  void refusesAQueueTimeToLiveThatOutlivesAStandardWorkflowOrIsNegative() {
    GraphCompileException tooLong =
        refusal(
            graph()
                .setSettings(GraphSettings.newBuilder().setQueueTtlSeconds(31_536_000))
                .addNodes(processor("p"))
                .build());
    assertThat(tooLong.problems())
        .singleElement()
        .hasToString(
            "node 'p': settings.queue_ttl_seconds (31536000) plus timeout_seconds (900) must not"
                + " exceed 31536000 s, the longest a Standard workflow runs [queue-ttl-bounds]");
    GraphCompileException negative =
        refusal(
            graph()
                .setSettings(GraphSettings.newBuilder().setQueueTtlSeconds(-1))
                .addNodes(processor("p"))
                .build());
    assertThat(negative.problems())
        .singleElement()
        .hasToString(
            "graph settings: queue_ttl_seconds is -1; it must be positive, or 0 for the default"
                + " [non-negative]");
  }

  @Test
  void refusesNegativeTimingAndOutOfRangeRetryPolicies() {
    GraphCompileException e =
        refusal(
            graph()
                .addNodes(
                    processor("p")
                        .setHeartbeatSeconds(-5)
                        .setRetryPolicy(
                            RetryPolicy.newBuilder()
                                .setBackoffRate(0.5)
                                .setInitialIntervalSeconds(90)
                                .setMaxIntervalSeconds(30)))
                .build());
    assertThat(e.problems())
        .extracting(CompileProblem::toString)
        .containsExactly(
            "node 'p': heartbeat_seconds is -5; it must be positive, or 0 for the default"
                + " [non-negative]",
            "node 'p': retry_policy.backoff_rate is 0.5; Step Functions requires a BackoffRate of"
                + " at least 1.0 (0 = default) [retry-bounds]",
            "node 'p': the retry wait starts at 90 s but is capped at 30 s: max_interval_seconds"
                + " must not be below initial_interval_seconds [retry-bounds]");
  }

  @Test
  void refusesAPathWhoseHistoryWouldExceedTheStandardLimitNamingThePath() {
    PipelineGraph graph =
        chain(40).toBuilder()
            .setSettings(
                GraphSettings.newBuilder()
                    .setModuleRetry(RetryPolicy.newBuilder().setMaxAttempts(200)))
            .build();
    GraphCompileException e = refusal(graph);
    assertThat(e.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.rule()).isEqualTo("history-size");
              assertThat(p.location())
                  .startsWith("document path in -> p1 -> p2 -> ")
                  .endsWith(" -> p40 -> out");
              assertThat(p.message())
                  .contains("over the 25000-event limit of a Standard execution");
            });
  }

  @Test
  void aLongButOrdinaryChainFitsTheHistoryBudget() {
    CompiledStateMachine compiled = StateMachineCompiler.compile(chain(60));
    assertThat(compiled.worstPath()).startsWith("in", "p1").endsWith("out").hasSize(62);
    assertThat(compiled.worstPathEvents()).isBetween(1_000L, 25_000L);
  }

  @Test
  void refusesACycleWithoutAHopBoundAndAcceptsABoundedOne() {
    PipelineGraph.Builder loop =
        graph()
            .addNodes(processor("a"))
            .addNodes(processor("b"))
            .addEdges(edge("a", "b"))
            .addEdges(edge("b", "a"));
    GraphCompileException e = refusal(loop.build());
    assertThat(e.problems())
        .extracting(CompileProblem::toString)
        .containsExactly(
            "edge 'a-b' (a -> b): the edge closes a cycle among nodes a, b but neither it nor"
                + " settings.default_max_hops sets max_hops, so the history of a document looping"
                + " here cannot be bounded [history-size]",
            "edge 'b-a' (b -> a): the edge closes a cycle among nodes a, b but neither it nor"
                + " settings.default_max_hops sets max_hops, so the history of a document looping"
                + " here cannot be bounded [history-size]");

    CompiledStateMachine bounded =
        StateMachineCompiler.compile(
            loop.setSettings(GraphSettings.newBuilder().setDefaultMaxHops(10)).build());
    assertThat(bounded.worstPath()).containsExactly("a", "b");

    GraphCompileException tooMany =
        refusal(loop.setSettings(GraphSettings.newBuilder().setDefaultMaxHops(1000)).build());
    assertThat(tooMany.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.location())
                  .isEqualTo("document path looping among nodes a, b (up to max_hops 1000 hops)");
              assertThat(p.message()).contains("lower max_hops on the cycle's edges");
            });
  }

  @Test
  void refusesTextThatDefinitionSubstitutionWouldRewrite() {
    GraphCompileException e =
        refusal(graph().addNodes(processor("p").setName("cost ${Budget}")).build());
    assertThat(e.problems())
        .singleElement()
        .hasToString(
            "state 'p.Prepare': the text 'Node 'cost ${Budget}' (module module-p): hydrate the"
                + " document, evaluate the filter, apply pre-mappings.' contains '${', which"
                + " definition substitution reserves for [${PrepareFunctionArn},"
                + " ${DispatchFunctionArn}, ${CompleteFunctionArn}, ${DlqFunctionArn},"
                + " ${StateMachineVersionArn}]; remove it from node ids, names and conditions"
                + " [substitution-syntax]");
  }

  @Test
  void refusesADefinitionTooLargeForOneStepFunctionsRequest() {
    PipelineGraph.Builder wide = graph().addNodes(intake("in"));
    for (int i = 0; i < 220; i++) {
      wide.addNodes(processor("node-" + i)).addEdges(edge("in", "node-" + i));
    }
    GraphCompileException e = refusal(wide.build());
    assertThat(e.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.rule()).isEqualTo("definition-size");
              assertThat(p.location()).isEqualTo("definition");
              assertThat(p.message())
                  .contains("bytes in a Step Functions request")
                  .contains("over the 1032192 bytes that fit the 1 MB request limit");
            });
  }

  @Test
  void theDeployableDefinitionIsCompactWithEverySubstitutionFilled() throws Exception {
    CompiledStateMachine compiled = StateMachineCompiler.compile(chain(1));
    Map<String, String> arns = new LinkedHashMap<>();
    for (String name : StateMachineCompiler.SUBSTITUTIONS) {
      arns.put(name, "arn:aws:lambda:eu-west-1:123456789012:function:" + name);
    }
    String deployable = compiled.deployableDefinition(arns);
    assertThat(deployable).doesNotContain("${").doesNotContain("\n").doesNotContain("\": ");
    assertThat(
            JSON.readTree(deployable)
                .get("States")
                .get("p1.Work")
                .get("Parameters")
                .get("FunctionName")
                .asText())
        .isEqualTo("arn:aws:lambda:eu-west-1:123456789012:function:DispatchFunctionArn");
    assertThat(JSON.readTree(compiled.compactDefinition()))
        .isEqualTo(JSON.readTree(compiled.definition()));

    arns.remove(StateMachineCompiler.DLQ_FUNCTION_ARN);
    Assertions.assertThatThrownBy(() -> compiled.deployableDefinition(arns))
        .hasMessageStartingWith("substitution 'DlqFunctionArn' has no value");
    arns.put(StateMachineCompiler.DLQ_FUNCTION_ARN, "a\"b");
    Assertions.assertThatThrownBy(() -> compiled.deployableDefinition(arns))
        .hasMessage(
            "substitution 'DlqFunctionArn' value 'a\"b' must be a plain ARN (no quotes, backslashes"
                + " or '${')");
    arns.put("Other", "x");
    Assertions.assertThatThrownBy(() -> compiled.deployableDefinition(arns))
        .hasMessageStartingWith("substitution 'Other' is not used by compiled definitions");
  }

  @Test
  void theSameGraphCompilesToTheSameBytes() {
    PipelineGraph graph = chain(5);
    assertThat(StateMachineCompiler.compile(graph).definition())
        .isEqualTo(
            StateMachineCompiler.compile(PipelineGraph.newBuilder(graph).build()).definition());
  }
}
