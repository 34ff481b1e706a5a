package dev.protomolt.statemachines;

import dev.protomolt.core.orchestration.InlinePrepare;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Writes the states of every node of one graph version (statemachines/README.md, "The state
 * contract"); one instance per compilation.
 */
final class StateEmitter {

  /** N.NextRejected: the node N handed on to rejected the document (decision 1842). */
  static final String NEXT_REJECTED = "NextRejected";

  /** N.NextFailed: the hop of the node N handed on to failed terminally (decision 1842). */
  static final String NEXT_FAILED = "NextFailed";

  private final PipelineGraph graph;
  private final GraphShape shape;
  private final Map<String, HopPolicy> policies;
  private final Map<String, String> labels;
  private final Map<String, String> stateToNode = new LinkedHashMap<>();
  private final Map<String, HistoryBudget.NodeCost> costs = new LinkedHashMap<>();

  StateEmitter(PipelineGraph graph, GraphShape shape, Map<String, HopPolicy> policies) {
    this.graph = graph;
    this.shape = shape;
    this.policies = policies;
    this.labels =
        StateNames.labels(graph.getNodesList().stream().map(GraphNode::getNodeId).toList());
  }

  Map<String, HistoryBudget.NodeCost> costs() {
    return costs;
  }

  /** Turns {@code state 'x.Work'} into a location that also names the node. */
  String describe(String location) {
    for (Map.Entry<String, String> e : stateToNode.entrySet()) {
      if (location.startsWith("state '" + e.getKey() + "'")) {
        return "node '" + e.getValue() + "' " + location;
      }
    }
    return location;
  }

  JsonObject definition() {
    JsonObject states = JsonObject.of();
    states.with(StateMachineCompiler.START, start());
    for (GraphNode node : graph.getNodesList()) {
      JsonObject block = shape.isModule(node) ? moduleBlock(node) : intakeBlock(node);
      for (Map.Entry<String, Object> e : block.entrySet()) {
        states.with(e.getKey(), e.getValue());
        stateToNode.put(e.getKey(), node.getNodeId());
      }
    }
    states.with(
        StateMachineCompiler.UNKNOWN_NODE,
        fail(
            ErrorNames.UNKNOWN_NODE,
            "The execution input has no 'node', or names a node that is not in graph '"
                + graph.getGraphId()
                + "' version "
                + graph.getVersion()
                + "; start the execution with the id of a node of this version."));
    states.with(
        StateMachineCompiler.UNKNOWN_DESTINATION,
        fail(
            ErrorNames.UNKNOWN_DESTINATION,
            "Complete returned a single destination that is not a target of the node's outgoing"
                + " edges in this version."));
    return JsonObject.of()
        .with(
            "Comment",
            "ProtoMolt graph '"
                + graph.getGraphId()
                + "' version "
                + graph.getVersion()
                + (graph.getName().isEmpty() ? "" : " (" + graph.getName() + ")")
                + ": one block of states per node; Start enters at the node named by $.node.")
        .with("StartAt", StateMachineCompiler.START)
        .with("States", states);
  }

  private JsonObject start() {
    List<Object> choices = new ArrayList<>();
    choices.add(
        JsonObject.of()
            .with("Not", JsonObject.of().with("Variable", "$.node").with("IsPresent", true))
            .with("Next", StateMachineCompiler.UNKNOWN_NODE));
    for (GraphNode node : graph.getNodesList()) {
      choices.add(
          JsonObject.of()
              .with("Variable", "$.node")
              .with("StringEquals", node.getNodeId())
              .with("Next", entryState(node)));
    }
    return JsonObject.of()
        .with("Type", "Choice")
        .with(
            "Comment",
            "Enter at any node: admission enters at an intake node, fan-out children and replays at"
                + " the node they name.")
        .with("Choices", choices)
        .with("Default", StateMachineCompiler.UNKNOWN_NODE);
  }

  private String entryState(GraphNode node) {
    return shape.isModule(node) ? name(node, "Prepare") : name(node, "Complete");
  }

  private String name(GraphNode node, String suffix) {
    return labels.get(node.getNodeId()) + "." + suffix;
  }

  private String name(String nodeId, String suffix) {
    return labels.get(nodeId) + "." + suffix;
  }

  // ---- blocks ----------------------------------------------------------------------------

  private JsonObject moduleBlock(GraphNode node) {
    HopPolicy policy = policies.get(node.getNodeId());
    boolean drops =
        node.getFilterConditionsList().stream()
            .anyMatch(f -> action(f) == FilterAction.FILTER_ACTION_DROP);
    boolean skips =
        node.getFilterConditionsList().stream()
            .anyMatch(f -> action(f) == FilterAction.FILTER_ACTION_SKIP);
    JsonObject block = JsonObject.of();
    block.with(
        name(node, "Prepare"),
        prepare(node, drops || skips ? name(node, "Filter") : name(node, "Work")));
    if (drops || skips) {
      block.with(name(node, "Filter"), filter(node, drops, skips));
    }
    if (skips) {
      block.with(name(node, "Skip"), skip(node));
    }
    if (drops) {
      block.with(name(node, "Dropped"), disposition(node, Disposition.DROPPED));
    }
    block.with(name(node, "Work"), work(node, policy));
    block.with(name(node, "Complete"), complete(node, moduleOutcome()));
    routing(node, block);
    block.with(name(node, "Rejected"), rejected(node));
    nextFailures(node, moduleOutcome(), block);
    deadLetter(node, block);

    long main =
        cost(block, node, "Prepare")
            + cost(block, node, "Filter")
            + cost(block, node, "Skip")
            + cost(block, node, "Work")
            + cost(block, node, "Complete")
            + cost(block, node, "Next");
    costs.put(node.getNodeId(), new HistoryBudget.NodeCost(main, terminalCost(node, block)));
    return block;
  }

  private JsonObject intakeBlock(GraphNode node) {
    JsonObject block = JsonObject.of();
    block.with(name(node, "Complete"), complete(node, intakeOutcome()));
    routing(node, block);
    nextFailures(node, intakeOutcome(), block);
    deadLetter(node, block);
    long main = cost(block, node, "Complete") + cost(block, node, "Next");
    costs.put(node.getNodeId(), new HistoryBudget.NodeCost(main, terminalCost(node, block)));
    return block;
  }

  /** What a module node's Complete is told of its hop: the module's outcome and work unit. */
  private static JsonObject moduleOutcome() {
    return JsonObject.of().with("outcome.$", "$.outcome").with("workUnitId.$", "$.workUnitId");
  }

  /** An intake node's Complete derives its work unit from the admitted stream. */
  private static JsonObject intakeOutcome() {
    return JsonObject.of().with("outcome", "INTAKE");
  }

  /** N.NextRejected and N.NextFailed beside a Complete that hands on (decisions 1842, 1843). */
  private void nextFailures(GraphNode node, JsonObject outcome, JsonObject block) {
    handsOnTo(node)
        .ifPresent(
            to -> {
              block.with(
                  name(node, NEXT_REJECTED), nextFailed(node, to, outcome, name(to, "Rejected")));
              block.with(name(node, NEXT_FAILED), nextFailed(node, to, outcome, name(to, "Dlq")));
            });
  }

  @SuppressWarnings("unchecked")
  private long cost(JsonObject block, GraphNode node, String suffix) {
    Object state = block.get(name(node, suffix));
    return state == null ? 0 : HistoryBudget.stateCost((Map<String, Object>) state);
  }

  @SuppressWarnings("unchecked")
  private long terminalCost(GraphNode node, JsonObject block) {
    long worst = HistoryBudget.EVENTS_PER_STATE; // SinkReached / RoutingEnded / Dropped
    worst = Math.max(worst, cost(block, node, "Rejected"));
    worst = Math.max(worst, cost(block, node, "Dlq") + cost(block, node, "DeadLettered"));
    // A failure of the next node's module re-derives its input here, then dead-letters there
    // (decision 1842); that node's Dlq and DeadLettered cost what this node's do.
    worst =
        Math.max(
            worst,
            cost(block, node, NEXT_FAILED)
                + cost(block, node, "Dlq")
                + cost(block, node, "DeadLettered"));
    Object fanOut = block.get(name(node, "FanOut"));
    if (fanOut != null) {
      int items = shape.outEdges(node.getNodeId()).size();
      worst =
          Math.max(
              worst,
              HistoryBudget.mapCost((Map<String, Object>) fanOut, items)
                  + cost(block, node, "FannedOut"));
    }
    return worst;
  }

  private static FilterAction action(FilterCondition f) {
    return f.getAction() == FilterAction.FILTER_ACTION_SKIP
        ? FilterAction.FILTER_ACTION_SKIP
        : FilterAction.FILTER_ACTION_DROP;
  }

  // ---- states ----------------------------------------------------------------------------

  /** Fields every engine Lambda receives: which hop of which graph version this is. */
  private JsonObject hop(GraphNode node) {
    return JsonObject.of()
        .with("graphId", graph.getGraphId())
        .with("graphVersion", graph.getVersion())
        .with("clusterId", graph.getClusterId())
        .with("nodeId", node.getNodeId())
        .with("executionId.$", "$$.Execution.Id");
  }

  private JsonObject prepare(GraphNode node, String next) {
    JsonObject payload = hop(node).with("stream.$", "$.stream");
    return lambdaTask(
            "Node '"
                + display(node)
                + "' (module "
                + node.getModuleId()
                + "): hydrate the document, evaluate the filter, apply pre-mappings.",
            StateMachineCompiler.PREPARE_FUNCTION_ARN,
            payload)
        .with(
            "ResultSelector",
            JsonObject.of()
                .with("node", node.getNodeId())
                .with("action.$", "$.Payload.action")
                .with("workUnitId.$", "$.Payload.workUnitId")
                .with("stream.$", "$.Payload.stream"))
        .with("ResultPath", "$")
        .with("Retry", List.of(lambdaRetrier(node)))
        .with("Catch", List.of(catchAll(name(node, "Dlq"))))
        .with("Next", next);
  }

  private JsonObject filter(GraphNode node, boolean drops, boolean skips) {
    List<Object> choices = new ArrayList<>();
    if (drops) {
      choices.add(
          JsonObject.of()
              .with("Variable", "$.action")
              .with("StringEquals", "DROP")
              .with("Next", name(node, "Dropped")));
    }
    if (skips) {
      choices.add(
          JsonObject.of()
              .with("Variable", "$.action")
              .with("StringEquals", "SKIP")
              .with("Next", name(node, "Skip")));
    }
    return JsonObject.of()
        .with("Type", "Choice")
        .with("Comment", filterComment(node))
        .with("Choices", choices)
        .with("Default", name(node, "Work"));
  }

  private static String filterComment(GraphNode node) {
    StringBuilder comment = new StringBuilder("Filter outcome from Prepare (RUN, SKIP or DROP):");
    for (FilterCondition f : node.getFilterConditionsList()) {
      comment
          .append(' ')
          .append(action(f) == FilterAction.FILTER_ACTION_SKIP ? "SKIP" : "DROP")
          .append(" unless ")
          .append(f.getCondition())
          .append(';');
    }
    comment.setLength(comment.length() - 1);
    return comment.append('.').toString();
  }

  private JsonObject skip(GraphNode node) {
    return JsonObject.of()
        .with("Type", "Pass")
        .with(
            "Parameters",
            JsonObject.of()
                .with("node", node.getNodeId())
                .with("workUnitId.$", "$.workUnitId")
                .with("outcome", "SKIPPED")
                .with("stream.$", "$.stream"))
        .with("Next", name(node, "Complete"));
  }

  private JsonObject work(GraphNode node, HopPolicy policy) {
    JsonObject payload = hop(node);
    workFields(node, policy).forEach(payload::with);
    payload.with("workUnitId.$", "$.workUnitId").with("stream.$", "$.stream");
    HopPolicy.Backoff b = policy.retry();
    return JsonObject.of()
        .with("Type", "Task")
        .with("Resource", StateMachineCompiler.LAMBDA_WAIT_FOR_TOKEN)
        .with(
            "Parameters",
            JsonObject.of()
                .with("FunctionName", substitution(StateMachineCompiler.DISPATCH_FUNCTION_ARN))
                .with("Payload", payload))
        // No HeartbeatSeconds: queued work is never heartbeated, and the gateway's watchdog owns
        // claimed work (decision 1650). A timeout means the queue time to live ran out; it is not
        // retried, since a re-dispatch would only queue behind the same backlog again.
        .with("TimeoutSeconds", policy.workTimeoutSeconds())
        .with("ResultSelector", workSelector(node))
        .with("ResultPath", "$")
        .with(
            "Retry",
            List.of(lambdaRetrier(node), retrier(List.of(ErrorNames.MODULE_RETRYABLE), b, true)))
        .with(
            "Catch",
            List.of(
                JsonObject.of()
                    .with("ErrorEquals", List.of(ErrorNames.MODULE_REJECT))
                    .with("ResultPath", "$.error")
                    .with("Next", name(node, "Rejected")),
                catchAll(name(node, "Dlq"))))
        .with("Next", name(node, "Complete"));
  }

  /** What a Work payload tells Dispatch beyond the hop, its work unit and its stream. */
  private static JsonObject workFields(GraphNode node, HopPolicy policy) {
    return JsonObject.of()
        .with("moduleId", node.getModuleId())
        .with("taskToken.$", "$$.Task.Token")
        .with("attempt.$", "$$.State.RetryCount")
        .with("heartbeatSeconds", policy.heartbeatSeconds())
        .with("timeoutSeconds", policy.workTimeoutSeconds());
  }

  /** The state a node's module result leaves: what its Complete reads. */
  private static JsonObject workSelector(GraphNode node) {
    return JsonObject.of()
        .with("node", node.getNodeId())
        .with("workUnitId.$", "$.workUnitId")
        .with("outcome.$", "$.outcome")
        .with("stream.$", "$.stream");
  }

  private JsonObject complete(GraphNode node, JsonObject outcome) {
    JsonObject payload = hop(node);
    outcome.forEach(payload::with);
    payload.with("stream.$", "$.stream");
    Optional<GraphNode> direct = directTarget(node);
    if (direct.isPresent()) {
      return handingOn(node, direct.get(), payload);
    }
    if (preparesATarget(node)) {
      // Asked for by the machine, not assumed by the function: a version compiled before decision
      // 1832 has no prepared branch, and its Complete must keep answering unprepared.
      payload.with(InlinePrepare.PREPARE_NEXT_FIELD, true);
    }
    Optional<GraphNode> handsOn = handsOnTo(node);
    if (handsOn.isPresent()) {
      GraphNode to = handsOn.get();
      // The one node this Complete may prepare is also handed on here when routing picks it
      // (decision 1843); any other answer the function sends as this state's result itself. No
      // ResultSelector: the module's result and the routing answer differ, and N.Next tells them
      // apart by the outcome only a module result has.
      payload.with(
          InlinePrepare.DISPATCH_NEXT_FIELD,
          workFields(to, policies.get(to.getNodeId())).with("nodeId", to.getNodeId()));
      return waitingComplete(node, to, payload)
          .with("ResultPath", "$")
          .with("Next", name(node, "Next"));
    }
    JsonObject selector;
    boolean ends = shape.outEdges(node.getNodeId()).isEmpty();
    if (ends) {
      // No edge leaves the node, so Complete can route nowhere: it ends the walk itself with the
      // disposition a choice and a Pass state would have written, two transitions fewer per
      // document (decision 1833).
      boolean sink = node.getNodeType() == NodeType.NODE_TYPE_SINK;
      selector =
          JsonObject.of()
              .with(
                  "disposition",
                  (sink ? Disposition.SINK_REACHED : Disposition.ROUTING_ENDED).name())
              .with("node", node.getNodeId())
              .with("workUnitId.$", "$.Payload.workUnitId")
              .with("memoized.$", "$.Payload.memoized");
    } else {
      selector =
          JsonObject.of()
              .with("node.$", "$.Payload.node")
              .with("workUnitId.$", "$.Payload.workUnitId")
              .with("destinationCount.$", "$.Payload.destinationCount")
              .with("stream.$", "$.Payload.stream")
              .with("destinations.$", "$.Payload.destinations")
              .with("memoized.$", "$.Payload.memoized")
              .with("skipped.$", "$.Payload.skipped")
              .with(
                  InlinePrepare.PREPARED_FIELD + ".$", "$.Payload." + InlinePrepare.PREPARED_FIELD);
    }
    JsonObject task =
        lambdaTask(null, StateMachineCompiler.COMPLETE_FUNCTION_ARN, payload)
            .with("ResultSelector", selector)
            .with("ResultPath", "$")
            .with("Retry", List.of(lambdaRetrier(node)))
            .with("Catch", completeCatchers(node));
    return ends ? task.with("End", true) : task.with("Next", name(node, "Next"));
  }

  /**
   * The Complete of a node whose routing has one answer (decision 1834) hands the next node's work
   * on itself (decision 1842): it routes to {@code to}, prepares it and dispatches its work unit
   * under this state's task token, so the state ends with {@code to}'s module result and goes on to
   * {@code to}'s Complete. One state and one Lambda invocation per hop instead of two; {@code
   * to.Work} stays for redrives and for entries through its Prepare.
   *
   * <p>Errors keep the owner they had with two states: this node's completion failures are
   * retried, rejected and dead-lettered as this node's; the next module's outcomes (Module.Reject,
   * Module.Retryable, a result too large for the state, the queue's timeout) are retried with
   * {@code to}'s backoff and, once terminal, go to {@code to}'s Rejected or Dlq through a state
   * that first re-derives {@code to}'s input from this state's (see {@link #nextFailed}).
   */
  private JsonObject handingOn(GraphNode node, GraphNode to, JsonObject payload) {
    payload.with(InlinePrepare.DIRECT_NEXT_FIELD, true);
    payload.with(InlinePrepare.DISPATCH_NEXT_FIELD, workFields(to, policies.get(to.getNodeId())));
    return waitingComplete(node, to, payload)
        .with("ResultSelector", workSelector(to))
        .with("ResultPath", "$")
        .with("Next", name(to, "Complete"));
  }

  /**
   * A Complete task that waits for the task token of {@code to}'s hop: {@code to}'s Work timeout
   * and retryable-module retrier, this node's Lambda retrier, and catchers that send each failure
   * to the node it belongs to.
   */
  private JsonObject waitingComplete(GraphNode node, GraphNode to, JsonObject payload) {
    HopPolicy policy = policies.get(to.getNodeId());
    List<Object> catchers = new ArrayList<>();
    if (shape.isModule(node)) {
      catchers.add(
          JsonObject.of()
              .with("ErrorEquals", List.of(ErrorNames.RTBF_TOO_LARGE))
              .with("ResultPath", "$.error")
              .with("Next", name(node, "Rejected")));
    }
    catchers.add(
        JsonObject.of()
            .with("ErrorEquals", List.of(ErrorNames.MODULE_REJECT))
            .with("ResultPath", "$.error")
            .with("Next", name(node, NEXT_REJECTED)));
    catchers.add(
        JsonObject.of()
            .with("ErrorEquals", ErrorNames.NEXT_MODULE_FAILURES)
            .with("ResultPath", "$.error")
            .with("Next", name(node, NEXT_FAILED)));
    catchers.add(catchAll(name(node, "Dlq")));
    return JsonObject.of()
        .with("Type", "Task")
        .with("Resource", StateMachineCompiler.LAMBDA_WAIT_FOR_TOKEN)
        .with(
            "Parameters",
            JsonObject.of()
                .with("FunctionName", substitution(StateMachineCompiler.COMPLETE_FUNCTION_ARN))
                .with("Payload", payload))
        // The next node's Work timeout: the queue time to live plus one attempt (decision 1650).
        .with("TimeoutSeconds", policy.workTimeoutSeconds())
        .with(
            "Retry",
            List.of(
                lambdaRetrier(node),
                retrier(List.of(ErrorNames.MODULE_RETRYABLE), policy.retry(), true)))
        .with("Catch", catchers);
  }

  /**
   * After the module of the node a Complete handed on to failed terminally, this state completes
   * {@code node} again without dispatching (Complete is idempotent: its Lambda retrier re-runs it
   * too) for the one thing that state's input lacks, {@code to}'s work unit and input stream, and
   * hands the failure on with them to {@code to}'s {@code next} state. {@code to}'s Dlq then
   * records the hop it ran, and its Redriven re-enters at {@code to.Work}.
   */
  private JsonObject nextFailed(GraphNode node, GraphNode to, JsonObject outcome, String next) {
    JsonObject payload = hop(node);
    outcome.forEach(payload::with);
    // directNext: route to the one node and prepare it, or fail; settle nothing ahead.
    payload
        .with("stream.$", "$.stream")
        .with(InlinePrepare.DIRECT_NEXT_FIELD, true)
        .with(InlinePrepare.REDERIVE_FIELD, true)
        .with("error.$", "$.error");
    return lambdaTask(
            "Node '"
                + display(to)
                + "' failed after '"
                + display(node)
                + "' handed it on: re-derive its input, then "
                + next
                + ".",
            StateMachineCompiler.COMPLETE_FUNCTION_ARN,
            payload)
        .with(
            "ResultSelector",
            JsonObject.of()
                .with("node", to.getNodeId())
                .with("workUnitId.$", "$.Payload.workUnitId")
                .with("stream.$", "$.Payload.stream")
                .with(InlinePrepare.PREPARED_FIELD, true)
                .with("error.$", "$.Payload.error"))
        .with("ResultPath", "$")
        .with("Retry", List.of(lambdaRetrier(node)))
        .with("Catch", List.of(catchAll(name(node, "Dlq"))))
        .with("Next", next);
  }

  /**
   * The node this node's Complete goes straight to, with no routing choice between (decision
   * 1834): one transition fewer per hop. Empty where routing could answer anything else.
   */
  private Optional<GraphNode> directTarget(GraphNode node) {
    List<GraphEdge> edges = shape.outEdges(node.getNodeId());
    GraphNode to = edges.size() == 1 ? shape.nodes().get(edges.getFirst().getToNodeId()) : null;
    return InlinePrepare.direct(graph, node, edges, to) ? Optional.of(to) : Optional.empty();
  }

  /**
   * The node this node's Complete hands its work on to (decisions 1842, 1843): the target it goes
   * straight to, or else the one target of its routing choice that it may prepare. Empty when no
   * target or several may be prepared.
   */
  private Optional<GraphNode> handsOnTo(GraphNode node) {
    Optional<GraphNode> direct = directTarget(node);
    if (direct.isPresent()) {
      return direct;
    }
    List<GraphNode> preparable =
        shape.outEdges(node.getNodeId()).stream()
            .map(e -> shape.nodes().get(e.getToNodeId()))
            .filter(to -> to != null && InlinePrepare.allowed(to))
            .distinct()
            .toList();
    return preparable.size() == 1 ? Optional.of(preparable.getFirst()) : Optional.empty();
  }

  /** Whether N.Next has a prepared branch: some target is one Complete may prepare. */
  private boolean preparesATarget(GraphNode node) {
    return shape.outEdges(node.getNodeId()).stream()
        .map(e -> shape.nodes().get(e.getToNodeId()))
        .anyMatch(to -> to != null && InlinePrepare.allowed(to));
  }

  /**
   * A right-to-be-forgotten body that cannot travel inline is rejected, a typed and recorded
   * terminal outcome, rather than dead-lettered: it was never stored, so there is nothing a replay
   * could pick up (decision 0814). An intake node has no Rejected state; its failures dead-letter.
   */
  private List<Object> completeCatchers(GraphNode node) {
    if (!shape.isModule(node)) {
      return List.of(catchAll(name(node, "Dlq")));
    }
    return List.of(
        JsonObject.of()
            .with("ErrorEquals", List.of(ErrorNames.RTBF_TOO_LARGE))
            .with("ResultPath", "$.error")
            .with("Next", name(node, "Rejected")),
        catchAll(name(node, "Dlq")));
  }

  /** N.Next, the terminal for "no destination" and, with two or more edges, the fan-out. */
  private void routing(GraphNode node, JsonObject block) {
    List<GraphEdge> edges = shape.outEdges(node.getNodeId());
    if (edges.isEmpty() || directTarget(node).isPresent()) {
      return; // the node's Complete ends the walk, or goes straight on (see complete)
    }
    boolean sink = node.getNodeType() == NodeType.NODE_TYPE_SINK;
    String none = name(node, sink ? "SinkReached" : "RoutingEnded");
    List<Object> choices = new ArrayList<>();
    handsOnTo(node)
        .ifPresent(
            to ->
                // Only the handed-on module's result has an outcome (decision 1843).
                choices.add(
                    JsonObject.of()
                        .with("Variable", "$.outcome")
                        .with("IsPresent", true)
                        .with("Next", name(to, "Complete"))));
    choices.add(
        JsonObject.of()
            .with("Variable", "$.destinationCount")
            .with("NumericEquals", 0)
            .with("Next", none));
    if (edges.size() > 1) {
      choices.add(
          JsonObject.of()
              .with("Variable", "$.destinationCount")
              .with("NumericGreaterThan", 1)
              .with("Next", name(node, "FanOut")));
    }
    if (!edges.isEmpty()) {
      // Complete settled the memoized nodes after this one itself (decision 1815): the walk
      // enters at the node it names, through Start, which reaches every node.
      choices.add(
          JsonObject.of()
              .with("Variable", "$.skipped")
              .with("BooleanEquals", true)
              .with("Next", StateMachineCompiler.START));
    }
    Set<String> targets = new LinkedHashSet<>();
    edges.forEach(e -> targets.add(e.getToNodeId()));
    for (String target : targets) {
      GraphNode to = shape.nodes().get(target);
      if (to != null && InlinePrepare.allowed(to)) {
        // Complete prepared the node itself (decision 1832): its Prepare state has nothing left
        // to do. A Complete whose preparing failed answers unprepared, and the next choice
        // enters the node's Prepare, which fails (or is retried) on its own node.
        choices.add(
            JsonObject.of()
                .with(
                    "And",
                    List.of(
                        JsonObject.of().with("Variable", "$.node").with("StringEquals", target),
                        JsonObject.of()
                            .with("Variable", "$." + InlinePrepare.PREPARED_FIELD)
                            .with("BooleanEquals", true)))
                .with("Next", name(target, "Work")));
      }
      choices.add(
          JsonObject.of()
              .with("Variable", "$.node")
              .with("StringEquals", target)
              .with("Next", name(target, "Prepare")));
    }
    block.with(
        name(node, "Next"),
        JsonObject.of()
            .with("Type", "Choice")
            .with("Comment", routingComment(edges))
            .with("Choices", choices)
            .with("Default", StateMachineCompiler.UNKNOWN_DESTINATION));
    JsonObject ended =
        disposition(node, sink ? Disposition.SINK_REACHED : Disposition.ROUTING_ENDED);
    // The walk's memoized hops, as Complete counted them, are part of how it ended.
    ((JsonObject) ended.get("Parameters")).with("memoized.$", "$.memoized");
    block.with(none, ended);
    if (edges.size() > 1) {
      block.with(name(node, "FanOut"), fanOut(node));
      block.with(
          name(node, "FannedOut"),
          JsonObject.of()
              .with("Type", "Pass")
              .with(
                  "Parameters",
                  JsonObject.of()
                      .with("disposition", Disposition.FANNED_OUT.name())
                      .with("node", node.getNodeId())
                      .with("workUnitId.$", "$.workUnitId")
                      .with("children.$", "$.children"))
              .with("End", true));
    }
  }

  private static String routingComment(List<GraphEdge> edges) {
    StringBuilder comment = new StringBuilder("Edges by priority:");
    for (GraphEdge e : edges) {
      comment
          .append(" '")
          .append(e.getEdgeId())
          .append("' -> ")
          .append(e.getToNodeId())
          .append(" [")
          .append(behaviour(e.getTransportType()))
          .append(", priority ")
          .append(e.getPriority());
      if (e.getMaxHops() > 0) {
        comment.append(", max_hops ").append(e.getMaxHops());
      }
      if (e.getExclusive()) {
        comment.append(", exclusive");
      }
      comment
          .append(e.getCondition().isEmpty() ? ", always" : ", when " + e.getCondition())
          .append("];");
    }
    comment.setLength(comment.length() - 1);
    return comment.append('.').toString();
  }

  private static String behaviour(TransportType type) {
    return switch (type) {
      case TRANSPORT_TYPE_MEMORY -> "MEMORY";
      case TRANSPORT_TYPE_CACHE -> "CACHE";
      default -> "PERSIST";
    };
  }

  private JsonObject fanOut(GraphNode node) {
    String startChild = name(node, "StartChild");
    String alreadyStarted = name(node, "ChildAlreadyStarted");
    JsonObject childStates =
        JsonObject.of()
            .with(
                startChild,
                JsonObject.of()
                    .with("Type", "Task")
                    .with("Resource", StateMachineCompiler.START_EXECUTION)
                    .with(
                        "Parameters",
                        JsonObject.of()
                            .with(
                                "StateMachineArn",
                                substitution(StateMachineCompiler.STATE_MACHINE_VERSION_ARN))
                            .with("Name.$", "$.executionName")
                            .with(
                                "Input",
                                JsonObject.of()
                                    .with("node.$", "$.node")
                                    .with("stream.$", "$.stream")
                                    .with(
                                        "AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$",
                                        "$$.Execution.Id")))
                    .with(
                        "ResultSelector", JsonObject.of().with("executionArn.$", "$.ExecutionArn"))
                    .with(
                        "Retry",
                        List.of(
                            JsonObject.of()
                                .with("ErrorEquals", ErrorNames.START_EXECUTION_TRANSIENT)
                                .with("IntervalSeconds", 1)
                                .with("MaxAttempts", 5)
                                .with("BackoffRate", 2.0)
                                .with("MaxDelaySeconds", 30)
                                .with("JitterStrategy", "FULL")))
                    .with(
                        "Catch",
                        List.of(
                            JsonObject.of()
                                .with("ErrorEquals", List.of(ErrorNames.EXECUTION_ALREADY_EXISTS))
                                .with("ResultPath", "$.error")
                                .with("Next", alreadyStarted)))
                    .with("End", true))
            .with(
                alreadyStarted,
                JsonObject.of()
                    .with("Type", "Pass")
                    .with(
                        "Parameters",
                        JsonObject.of()
                            .with("executionName.$", "$.executionName")
                            .with("alreadyStarted", true))
                    .with("End", true));
    stateToNode.put(startChild, node.getNodeId());
    stateToNode.put(alreadyStarted, node.getNodeId());
    return JsonObject.of()
        .with("Type", "Map")
        .with("ItemsPath", "$.destinations")
        .with(
            "ItemSelector",
            JsonObject.of()
                .with("node.$", "$$.Map.Item.Value.node")
                .with("stream.$", "$$.Map.Item.Value.stream")
                .with("executionName.$", "$$.Map.Item.Value.executionName"))
        .with(
            "ItemProcessor",
            JsonObject.of().with("StartAt", startChild).with("States", childStates))
        .with("ResultPath", "$.children")
        .with("Catch", List.of(catchAll(name(node, "Dlq"))))
        .with("Next", name(node, "FannedOut"));
  }

  private JsonObject rejected(GraphNode node) {
    JsonObject payload =
        hop(node)
            .with("outcome", Disposition.REJECTED.name())
            .with("workUnitId.$", "$.workUnitId")
            .with("error.$", "$.error")
            .with("stream.$", "$.stream");
    return lambdaTask(null, StateMachineCompiler.COMPLETE_FUNCTION_ARN, payload)
        .with(
            "ResultSelector",
            JsonObject.of()
                .with("disposition", Disposition.REJECTED.name())
                .with("node", node.getNodeId())
                .with("workUnitId.$", "$.Payload.workUnitId"))
        .with("Retry", List.of(lambdaRetrier(node)))
        .with(
            "Catch",
            List.of(
                JsonObject.of()
                    .with("ErrorEquals", List.of(ErrorNames.STATES_ALL))
                    .with("ResultPath", "$.recordError")
                    .with("Next", name(node, "Dlq"))))
        .with("End", true);
  }

  private void deadLetter(GraphNode node, JsonObject block) {
    String topic = DeadLetterTopics.topic(graph, node);
    int maxReprocess =
        node.getDlqConfig().getMaxReprocessCount() > 0
            ? node.getDlqConfig().getMaxReprocessCount()
            : StateMachineCompiler.DEFAULT_MAX_REPROCESS;
    // A node without dlq_config dead-letters to its topic (the seeds' default); enabled=false
    // keeps the record and the saved body but publishes nothing (decision 0305).
    boolean publish = DeadLetterTopics.publishes(node);
    JsonObject payload =
        hop(node)
            .with("topic", topic)
            .with("publish", publish)
            .with("saveOnError", node.getSaveOnError())
            .with("maxReprocessCount", maxReprocess)
            // Echoed back, so N.DeadLettered can tell its first entry from a redrive's.
            .with("redriveCount.$", "$$.Execution.RedriveCount")
            .with("failed.$", "$");
    block.with(
        name(node, "Dlq"),
        lambdaTask(null, StateMachineCompiler.DLQ_FUNCTION_ARN, payload)
            .with(
                "ResultSelector",
                JsonObject.of()
                    .with("dlqId.$", "$.Payload.dlqId")
                    .with("redriveCount.$", "$.Payload.redriveCount"))
            .with("ResultPath", "$.deadLetter")
            .with("Retry", List.of(lambdaRetrier(node)))
            .with("Next", name(node, "DeadLettered")));
    JsonObject redriven = redriven(node, block);
    block.with(
        name(node, "DeadLettered"),
        deadLettered(
            node, topic, publish, redriven == null ? entryState(node) : name(node, "Redriven")));
    if (redriven != null) {
      block.with(name(node, "Redriven"), redriven);
    }
  }

  /**
   * The dead letter's failed state: a Task, not a Fail state, so a redrive has something to
   * re-run (decision 1525). The dlq function fails the task token with {@code
   * ProtoMolt.DeadLettered} while the execution's redrive count is the one the dead letter was
   * written under, and succeeds it once the execution was redriven since, sending the walk back
   * to the state that failed.
   */
  private JsonObject deadLettered(GraphNode node, String topic, boolean publish, String next) {
    JsonObject payload =
        hop(node)
            .with("hold", true)
            .with("topic", topic)
            .with("publish", publish)
            .with("dlqId.$", "$.deadLetter.dlqId")
            .with("deadLetteredAt.$", "$.deadLetter.redriveCount")
            .with("redriveCount.$", "$$.Execution.RedriveCount")
            .with("taskToken.$", "$$.Task.Token");
    return JsonObject.of()
        .with("Type", "Task")
        .with(
            "Comment",
            "Node '"
                + node.getNodeId()
                + "' dead-lettered the document to "
                + topic
                + (publish ? "" : " (recorded, not published)")
                + ": fails with "
                + ErrorNames.DEAD_LETTERED
                + "; a redrive re-runs the failed state.")
        .with("Resource", StateMachineCompiler.LAMBDA_WAIT_FOR_TOKEN)
        .with(
            "Parameters",
            JsonObject.of()
                .with("FunctionName", substitution(StateMachineCompiler.DLQ_FUNCTION_ARN))
                .with("Payload", payload))
        // The function answers its token before it returns; this only bounds a lost answer.
        .with("TimeoutSeconds", StateMachineCompiler.DEAD_LETTER_HOLD_SECONDS)
        .with("ResultPath", "$.redriven")
        .with("Retry", List.of(lambdaRetrier(node)))
        .with("Next", next);
  }

  /**
   * After a redrive, back to the state whose failure was dead-lettered, with the input it had:
   * each catcher leaves a mark of where it caught ({@code recordError} from Rejected, a fan-out's
   * {@code destinationCount} over one, Work's {@code outcome}, Prepare's {@code action}, the
   * previous Complete's {@code prepared} when it prepared this node), and
   * anything else failed at the node's entry state. Null when the entry state is the only one a
   * dead letter can come from (an intake node without a fan-out).
   */
  private JsonObject redriven(GraphNode node, JsonObject block) {
    List<Object> choices = new ArrayList<>();
    if (block.containsKey(name(node, "Rejected"))) {
      choices.add(present("$.recordError").with("Next", name(node, "Rejected")));
    }
    if (shape.outEdges(node.getNodeId()).size() > 1) {
      choices.add(
          JsonObject.of()
              .with(
                  "And",
                  List.of(
                      present("$.destinationCount"),
                      JsonObject.of()
                          .with("Variable", "$.destinationCount")
                          .with("NumericGreaterThan", 1)))
              .with("Next", name(node, "FanOut")));
    }
    if (shape.isModule(node)) {
      choices.add(present("$.outcome").with("Next", name(node, "Complete")));
      choices.add(present("$.action").with("Next", name(node, "Work")));
      if (InlinePrepare.allowed(node)) {
        // Work entered from the Complete before, which prepared the node (decision 1832): the
        // stream is prepared already, so Work re-runs it; Prepare would apply pre-mappings twice.
        String prepared = "$." + InlinePrepare.PREPARED_FIELD;
        choices.add(
            JsonObject.of()
                .with(
                    "And",
                    List.of(
                        present(prepared),
                        JsonObject.of().with("Variable", prepared).with("BooleanEquals", true)))
                .with("Next", name(node, "Work")));
      }
    }
    if (choices.isEmpty()) {
      return null;
    }
    return JsonObject.of()
        .with("Type", "Choice")
        .with(
            "Comment",
            "Redriven: re-run the state whose failure was dead-lettered, with its input.")
        .with("Choices", choices)
        .with("Default", entryState(node));
  }

  private static JsonObject present(String variable) {
    return JsonObject.of().with("Variable", variable).with("IsPresent", true);
  }

  private JsonObject disposition(GraphNode node, Disposition disposition) {
    return JsonObject.of()
        .with("Type", "Pass")
        .with(
            "Parameters",
            JsonObject.of()
                .with("disposition", disposition.name())
                .with("node", node.getNodeId())
                .with("workUnitId.$", "$.workUnitId"))
        .with("End", true);
  }

  private static JsonObject fail(String error, String cause) {
    return JsonObject.of().with("Type", "Fail").with("Error", error).with("Cause", cause);
  }

  private static JsonObject lambdaTask(String comment, String function, JsonObject payload) {
    JsonObject task = JsonObject.of().with("Type", "Task");
    if (comment != null) {
      task.with("Comment", comment);
    }
    return task.with("Resource", StateMachineCompiler.LAMBDA_INVOKE)
        .with(
            "Parameters",
            JsonObject.of().with("FunctionName", substitution(function)).with("Payload", payload));
  }

  /**
   * Retries transient Lambda and engine failures. The first hop (every Lambda task of an intake
   * node's block and of a module node entered from intake) uses the first-hop backoff, by default
   * 5 retries 2 s growing to 60 s, so an intake is not dead-lettered by a short store or broker
   * outage; other hops retry 3 times from 1 s (decision 0812).
   */
  private JsonObject lambdaRetrier(GraphNode node) {
    if (!shape.isModule(node) || shape.isFirstHop(node.getNodeId())) {
      HopPolicy.Backoff b = HopPolicy.firstHopEngine(graph.getSettings());
      return JsonObject.of()
          .with("ErrorEquals", ErrorNames.LAMBDA_TRANSIENT)
          .with("IntervalSeconds", b.intervalSeconds())
          .with("MaxAttempts", b.maxAttempts())
          .with("BackoffRate", b.backoffRate())
          .with("MaxDelaySeconds", b.maxDelaySeconds());
    }
    return JsonObject.of()
        .with("ErrorEquals", ErrorNames.LAMBDA_TRANSIENT)
        .with("IntervalSeconds", 1)
        .with("MaxAttempts", 3)
        .with("BackoffRate", 2.0);
  }

  private static JsonObject retrier(
      List<String> errors, HopPolicy.Backoff backoff, boolean jitter) {
    JsonObject retrier =
        JsonObject.of()
            .with("ErrorEquals", errors)
            .with("IntervalSeconds", backoff.intervalSeconds())
            .with("MaxAttempts", backoff.maxAttempts())
            .with("BackoffRate", backoff.backoffRate())
            .with("MaxDelaySeconds", backoff.maxDelaySeconds());
    if (jitter) {
      // Many documents retrying a rate-limited module together would otherwise retry in step.
      retrier.with("JitterStrategy", "FULL");
    }
    return retrier;
  }

  private static JsonObject catchAll(String next) {
    return JsonObject.of()
        .with("ErrorEquals", List.of(ErrorNames.STATES_ALL))
        .with("ResultPath", "$.error")
        .with("Next", next);
  }

  private static String substitution(String name) {
    return "${" + name + "}";
  }

  private static String display(GraphNode node) {
    return node.getName().isEmpty() ? node.getNodeId() : node.getName();
  }
}
