package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles one {@link PipelineGraph} version to an Amazon States Language definition (JSONPath),
 * the shape described in ARCHITECTURE §5 and, state by state, in statemachines/README.md.
 *
 * <p>The compiler is a pure function: it reads nothing but the graph, and the same graph always
 * gives the same bytes (insertion-ordered JSON, graph order for nodes, priority order for edges).
 * It refuses what it cannot compile with every problem listed; it is not the graph validator and
 * checks only what the state machine itself depends on.
 */
public final class StateMachineCompiler {

  public static final String PREPARE_FUNCTION_ARN = "PrepareFunctionArn";
  public static final String DISPATCH_FUNCTION_ARN = "DispatchFunctionArn";
  public static final String COMPLETE_FUNCTION_ARN = "CompleteFunctionArn";
  public static final String DLQ_FUNCTION_ARN = "DlqFunctionArn";
  public static final String STATE_MACHINE_VERSION_ARN = "StateMachineVersionArn";

  /** Definition substitutions ({@code ${Name}}) the deployer must supply, in a stable order. */
  public static final List<String> SUBSTITUTIONS =
      List.of(PREPARE_FUNCTION_ARN, DISPATCH_FUNCTION_ARN, COMPLETE_FUNCTION_ARN, DLQ_FUNCTION_ARN, STATE_MACHINE_VERSION_ARN);

  static final String LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke";
  static final String LAMBDA_WAIT_FOR_TOKEN = "arn:aws:states:::lambda:invoke.waitForTaskToken";
  static final String START_EXECUTION = "arn:aws:states:::states:startExecution";

  static final String START = "Start";
  static final String UNKNOWN_NODE = "UnknownNode";
  static final String UNKNOWN_DESTINATION = "UnknownDestination";

  /** The reprocessing cap the seeds use when a node's DLQ config leaves it at 0. */
  static final int DEFAULT_MAX_REPROCESS = 3;

  private StateMachineCompiler() {}

  /** Compiles {@code graph}, or throws {@link GraphCompileException} listing every problem. */
  public static CompiledStateMachine compile(PipelineGraph graph) {
    String graphName = "'" + graph.getGraphId() + "' version " + graph.getVersion();
    List<CompileProblem> problems = new ArrayList<>();
    GraphShape shape = GraphShape.of(graph, problems);
    if (!problems.isEmpty()) {
      throw new GraphCompileException(graphName, problems);
    }
    Map<String, HopPolicy> policies = new LinkedHashMap<>();
    for (GraphNode node : graph.getNodesList()) {
      if (shape.isModule(node)) {
        boolean firstHop = shape.isFirstHop(node.getNodeId());
        policies.put(node.getNodeId(), HopPolicy.resolve(node, graph.getSettings(), firstHop, "node '" + node.getNodeId() + "'", problems));
      }
    }
    if (!problems.isEmpty()) {
      throw new GraphCompileException(graphName, problems);
    }
    StateMachineCompiler.Emitter emitter = new Emitter(graph, shape, policies);
    JsonObject definition = emitter.definition();

    for (CompileProblem p : AslRules.check(definition)) {
      problems.add(new CompileProblem(emitter.describe(p.location()), p.rule(), p.message()));
    }
    HistoryBudget.Estimate estimate = HistoryBudget.estimate(emitter.costs(), shape.budgetEdges(graph), problems);
    String compact = JsonWriter.writeCompact(definition);
    DeployLimits.check(definition, compact, graph.getNodesCount(), problems);
    if (!problems.isEmpty()) {
      throw new GraphCompileException(graphName, problems);
    }
    return new CompiledStateMachine(JsonWriter.write(definition), compact, estimate.path(), estimate.events());
  }

  /** Writes the states of every node; one instance per compilation. */
  private static final class Emitter {
    private final PipelineGraph graph;
    private final GraphShape shape;
    private final Map<String, HopPolicy> policies;
    private final Map<String, String> labels;
    private final Map<String, String> stateToNode = new LinkedHashMap<>();
    private final Map<String, HistoryBudget.NodeCost> costs = new LinkedHashMap<>();

    Emitter(PipelineGraph graph, GraphShape shape, Map<String, HopPolicy> policies) {
      this.graph = graph;
      this.shape = shape;
      this.policies = policies;
      this.labels = StateNames.labels(graph.getNodesList().stream().map(GraphNode::getNodeId).toList());
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
      states.with(START, start());
      for (GraphNode node : graph.getNodesList()) {
        JsonObject block = shape.isModule(node) ? moduleBlock(node) : intakeBlock(node);
        for (Map.Entry<String, Object> e : block.entrySet()) {
          states.with(e.getKey(), e.getValue());
          stateToNode.put(e.getKey(), node.getNodeId());
        }
      }
      states.with(
          UNKNOWN_NODE,
          fail(
              ErrorNames.UNKNOWN_NODE,
              "The execution input has no 'node', or names a node that is not in graph '" + graph.getGraphId() + "' version "
                  + graph.getVersion() + "; start the execution with the id of a node of this version."));
      states.with(
          UNKNOWN_DESTINATION,
          fail(
              ErrorNames.UNKNOWN_DESTINATION,
              "Complete returned a single destination that is not a target of the node's outgoing edges in this version."));
      return JsonObject.of()
          .with("Comment", "ProtoMolt graph '" + graph.getGraphId() + "' version " + graph.getVersion()
              + (graph.getName().isEmpty() ? "" : " (" + graph.getName() + ")")
              + ": one block of states per node; Start enters at the node named by $.node.")
          .with("StartAt", START)
          .with("States", states);
    }

    private JsonObject start() {
      List<Object> choices = new ArrayList<>();
      choices.add(JsonObject.of().with("Not", JsonObject.of().with("Variable", "$.node").with("IsPresent", true)).with("Next", UNKNOWN_NODE));
      for (GraphNode node : graph.getNodesList()) {
        choices.add(JsonObject.of().with("Variable", "$.node").with("StringEquals", node.getNodeId()).with("Next", entryState(node)));
      }
      return JsonObject.of()
          .with("Type", "Choice")
          .with("Comment", "Enter at any node: admission enters at an intake node, fan-out children and replays at the node they name.")
          .with("Choices", choices)
          .with("Default", UNKNOWN_NODE);
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
      boolean drops = node.getFilterConditionsList().stream().anyMatch(f -> action(f) == FilterAction.FILTER_ACTION_DROP);
      boolean skips = node.getFilterConditionsList().stream().anyMatch(f -> action(f) == FilterAction.FILTER_ACTION_SKIP);
      JsonObject block = JsonObject.of();
      block.with(name(node, "Prepare"), prepare(node, drops || skips ? name(node, "Filter") : name(node, "Work")));
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
      block.with(name(node, "Complete"), complete(node, JsonObject.of().with("outcome.$", "$.outcome").with("workUnitId.$", "$.workUnitId")));
      routing(node, block);
      block.with(name(node, "Rejected"), rejected(node));
      deadLetter(node, block);

      long main = cost(block, node, "Prepare") + cost(block, node, "Filter") + cost(block, node, "Skip")
          + cost(block, node, "Work") + cost(block, node, "Complete") + cost(block, node, "Next");
      costs.put(node.getNodeId(), new HistoryBudget.NodeCost(main, terminalCost(node, block)));
      return block;
    }

    private JsonObject intakeBlock(GraphNode node) {
      JsonObject block = JsonObject.of();
      block.with(name(node, "Complete"), complete(node, JsonObject.of().with("outcome", "INTAKE")));
      routing(node, block);
      deadLetter(node, block);
      long main = cost(block, node, "Complete") + cost(block, node, "Next");
      costs.put(node.getNodeId(), new HistoryBudget.NodeCost(main, terminalCost(node, block)));
      return block;
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
      Object fanOut = block.get(name(node, "FanOut"));
      if (fanOut != null) {
        int items = shape.outEdges(node.getNodeId()).size();
        worst = Math.max(worst, HistoryBudget.mapCost((Map<String, Object>) fanOut, items) + cost(block, node, "FannedOut"));
      }
      return worst;
    }

    private static FilterAction action(FilterCondition f) {
      return f.getAction() == FilterAction.FILTER_ACTION_SKIP ? FilterAction.FILTER_ACTION_SKIP : FilterAction.FILTER_ACTION_DROP;
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
              "Node '" + display(node) + "' (module " + node.getModuleId() + "): hydrate the document, evaluate the filter, apply pre-mappings.",
              PREPARE_FUNCTION_ARN,
              payload)
          .with("ResultSelector", JsonObject.of()
              .with("node", node.getNodeId())
              .with("action.$", "$.Payload.action")
              .with("workUnitId.$", "$.Payload.workUnitId")
              .with("stream.$", "$.Payload.stream"))
          .with("ResultPath", "$")
          .with("Retry", List.of(lambdaRetrier()))
          .with("Catch", List.of(catchAll(name(node, "Dlq"))))
          .with("Next", next);
    }

    private JsonObject filter(GraphNode node, boolean drops, boolean skips) {
      List<Object> choices = new ArrayList<>();
      if (drops) {
        choices.add(JsonObject.of().with("Variable", "$.action").with("StringEquals", "DROP").with("Next", name(node, "Dropped")));
      }
      if (skips) {
        choices.add(JsonObject.of().with("Variable", "$.action").with("StringEquals", "SKIP").with("Next", name(node, "Skip")));
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
        comment.append(' ').append(action(f) == FilterAction.FILTER_ACTION_SKIP ? "SKIP" : "DROP").append(" unless ").append(f.getCondition()).append(';');
      }
      comment.setLength(comment.length() - 1);
      return comment.append('.').toString();
    }

    private JsonObject skip(GraphNode node) {
      return JsonObject.of()
          .with("Type", "Pass")
          .with("Parameters", JsonObject.of()
              .with("node", node.getNodeId())
              .with("workUnitId.$", "$.workUnitId")
              .with("outcome", "SKIPPED")
              .with("stream.$", "$.stream"))
          .with("Next", name(node, "Complete"));
    }

    private JsonObject work(GraphNode node, HopPolicy policy) {
      JsonObject payload = hop(node)
          .with("moduleId", node.getModuleId())
          .with("taskToken.$", "$$.Task.Token")
          .with("attempt.$", "$$.State.RetryCount")
          .with("workUnitId.$", "$.workUnitId")
          .with("heartbeatSeconds", policy.heartbeatSeconds())
          .with("timeoutSeconds", policy.timeoutSeconds())
          .with("stream.$", "$.stream");
      HopPolicy.Backoff b = policy.retry();
      return JsonObject.of()
          .with("Type", "Task")
          .with("Resource", LAMBDA_WAIT_FOR_TOKEN)
          .with("Parameters", JsonObject.of().with("FunctionName", substitution(DISPATCH_FUNCTION_ARN)).with("Payload", payload))
          .with("HeartbeatSeconds", policy.heartbeatSeconds())
          .with("TimeoutSeconds", policy.timeoutSeconds())
          .with("ResultSelector", JsonObject.of()
              .with("node", node.getNodeId())
              .with("workUnitId.$", "$.workUnitId")
              .with("outcome.$", "$.outcome")
              .with("stream.$", "$.stream"))
          .with("ResultPath", "$")
          .with("Retry", List.of(
              lambdaRetrier(),
              retrier(List.of(ErrorNames.HEARTBEAT_TIMEOUT, ErrorNames.TIMEOUT), b, false),
              retrier(List.of(ErrorNames.MODULE_RETRYABLE), b, true)))
          .with("Catch", List.of(
              JsonObject.of().with("ErrorEquals", List.of(ErrorNames.MODULE_REJECT)).with("ResultPath", "$.error").with("Next", name(node, "Rejected")),
              catchAll(name(node, "Dlq"))))
          .with("Next", name(node, "Complete"));
    }

    private JsonObject complete(GraphNode node, JsonObject outcome) {
      JsonObject payload = hop(node);
      outcome.forEach(payload::with);
      payload.with("stream.$", "$.stream");
      return lambdaTask(
              null,
              COMPLETE_FUNCTION_ARN,
              payload)
          .with("ResultSelector", JsonObject.of()
              .with("node.$", "$.Payload.node")
              .with("workUnitId.$", "$.Payload.workUnitId")
              .with("destinationCount.$", "$.Payload.destinationCount")
              .with("stream.$", "$.Payload.stream")
              .with("destinations.$", "$.Payload.destinations"))
          .with("ResultPath", "$")
          .with("Retry", List.of(lambdaRetrier()))
          .with("Catch", List.of(catchAll(name(node, "Dlq"))))
          .with("Next", name(node, "Next"));
    }

    /** N.Next, the terminal for "no destination" and, with two or more edges, the fan-out. */
    private void routing(GraphNode node, JsonObject block) {
      List<GraphEdge> edges = shape.outEdges(node.getNodeId());
      boolean sink = node.getNodeType() == NodeType.NODE_TYPE_SINK;
      String none = name(node, sink ? "SinkReached" : "RoutingEnded");
      List<Object> choices = new ArrayList<>();
      choices.add(JsonObject.of().with("Variable", "$.destinationCount").with("NumericEquals", 0).with("Next", none));
      if (edges.size() > 1) {
        choices.add(JsonObject.of().with("Variable", "$.destinationCount").with("NumericGreaterThan", 1).with("Next", name(node, "FanOut")));
      }
      Set<String> targets = new LinkedHashSet<>();
      edges.forEach(e -> targets.add(e.getToNodeId()));
      for (String target : targets) {
        choices.add(JsonObject.of().with("Variable", "$.node").with("StringEquals", target).with("Next", name(target, "Prepare")));
      }
      block.with(name(node, "Next"), JsonObject.of()
          .with("Type", "Choice")
          .with("Comment", routingComment(edges))
          .with("Choices", choices)
          .with("Default", UNKNOWN_DESTINATION));
      block.with(none, disposition(node, sink ? Disposition.SINK_REACHED : Disposition.ROUTING_ENDED));
      if (edges.size() > 1) {
        block.with(name(node, "FanOut"), fanOut(node));
        block.with(name(node, "FannedOut"), JsonObject.of()
            .with("Type", "Pass")
            .with("Parameters", JsonObject.of()
                .with("disposition", Disposition.FANNED_OUT.name())
                .with("node", node.getNodeId())
                .with("workUnitId.$", "$.workUnitId")
                .with("children.$", "$.children"))
            .with("End", true));
      }
    }

    private static String routingComment(List<GraphEdge> edges) {
      if (edges.isEmpty()) {
        return "No outgoing edges: the document's walk ends here.";
      }
      StringBuilder comment = new StringBuilder("Edges by priority:");
      for (GraphEdge e : edges) {
        comment.append(" '").append(e.getEdgeId()).append("' -> ").append(e.getToNodeId())
            .append(" [").append(behaviour(e.getTransportType())).append(", priority ").append(e.getPriority());
        if (e.getMaxHops() > 0) {
          comment.append(", max_hops ").append(e.getMaxHops());
        }
        if (e.getExclusive()) {
          comment.append(", exclusive");
        }
        comment.append(e.getCondition().isEmpty() ? ", always" : ", when " + e.getCondition()).append("];");
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
      JsonObject childStates = JsonObject.of()
          .with(startChild, JsonObject.of()
              .with("Type", "Task")
              .with("Resource", START_EXECUTION)
              .with("Parameters", JsonObject.of()
                  .with("StateMachineArn", substitution(STATE_MACHINE_VERSION_ARN))
                  .with("Name.$", "$.executionName")
                  .with("Input", JsonObject.of()
                      .with("node.$", "$.node")
                      .with("stream.$", "$.stream")
                      .with("AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$", "$$.Execution.Id")))
              .with("ResultSelector", JsonObject.of().with("executionArn.$", "$.ExecutionArn"))
              .with("Retry", List.of(JsonObject.of()
                  .with("ErrorEquals", ErrorNames.START_EXECUTION_TRANSIENT)
                  .with("IntervalSeconds", 1)
                  .with("MaxAttempts", 5)
                  .with("BackoffRate", 2.0)
                  .with("MaxDelaySeconds", 30)
                  .with("JitterStrategy", "FULL")))
              .with("Catch", List.of(JsonObject.of()
                  .with("ErrorEquals", List.of(ErrorNames.EXECUTION_ALREADY_EXISTS))
                  .with("ResultPath", "$.error")
                  .with("Next", alreadyStarted)))
              .with("End", true))
          .with(alreadyStarted, JsonObject.of()
              .with("Type", "Pass")
              .with("Parameters", JsonObject.of().with("executionName.$", "$.executionName").with("alreadyStarted", true))
              .with("End", true));
      stateToNode.put(startChild, node.getNodeId());
      stateToNode.put(alreadyStarted, node.getNodeId());
      return JsonObject.of()
          .with("Type", "Map")
          .with("ItemsPath", "$.destinations")
          .with("ItemSelector", JsonObject.of()
              .with("node.$", "$$.Map.Item.Value.node")
              .with("stream.$", "$$.Map.Item.Value.stream")
              .with("executionName.$", "$$.Map.Item.Value.executionName"))
          .with("ItemProcessor", JsonObject.of().with("StartAt", startChild).with("States", childStates))
          .with("ResultPath", "$.children")
          .with("Catch", List.of(catchAll(name(node, "Dlq"))))
          .with("Next", name(node, "FannedOut"));
    }

    private JsonObject rejected(GraphNode node) {
      JsonObject payload = hop(node)
          .with("outcome", Disposition.REJECTED.name())
          .with("workUnitId.$", "$.workUnitId")
          .with("error.$", "$.error")
          .with("stream.$", "$.stream");
      return lambdaTask(null, COMPLETE_FUNCTION_ARN, payload)
          .with("ResultSelector", JsonObject.of()
              .with("disposition", Disposition.REJECTED.name())
              .with("node", node.getNodeId())
              .with("workUnitId.$", "$.Payload.workUnitId"))
          .with("Retry", List.of(lambdaRetrier()))
          .with("Catch", List.of(JsonObject.of().with("ErrorEquals", List.of(ErrorNames.STATES_ALL)).with("ResultPath", "$.recordError").with("Next", name(node, "Dlq"))))
          .with("End", true);
    }

    private void deadLetter(GraphNode node, JsonObject block) {
      String topic = node.getDlqConfig().getTopicOverride().isEmpty()
          ? "pipestream." + graph.getClusterId() + "." + graph.getGraphId() + "." + node.getNodeId() + ".dlq"
          : node.getDlqConfig().getTopicOverride();
      int maxReprocess = node.getDlqConfig().getMaxReprocessCount() > 0 ? node.getDlqConfig().getMaxReprocessCount() : DEFAULT_MAX_REPROCESS;
      // A node without dlq_config dead-letters to its topic (the seeds' default); enabled=false
      // keeps the record and the saved body but publishes nothing (decision 0305).
      boolean publish = !node.hasDlqConfig() || node.getDlqConfig().getEnabled();
      JsonObject payload = hop(node)
          .with("topic", topic)
          .with("publish", publish)
          .with("saveOnError", node.getSaveOnError())
          .with("maxReprocessCount", maxReprocess)
          .with("failed.$", "$");
      block.with(name(node, "Dlq"), lambdaTask(
              null,
              DLQ_FUNCTION_ARN,
              payload)
          .with("ResultSelector", JsonObject.of().with("dlqId.$", "$.Payload.dlqId"))
          .with("ResultPath", "$.deadLetter")
          .with("Retry", List.of(lambdaRetrier()))
          .with("Next", name(node, "DeadLettered")));
      block.with(name(node, "DeadLettered"),
          fail(ErrorNames.DEAD_LETTERED, "Node '" + node.getNodeId() + "' dead-lettered the document to " + topic + (publish ? "" : " (recorded, not published)") + "."));
    }

    private JsonObject disposition(GraphNode node, Disposition disposition) {
      return JsonObject.of()
          .with("Type", "Pass")
          .with("Parameters", JsonObject.of()
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
      return task
          .with("Resource", LAMBDA_INVOKE)
          .with("Parameters", JsonObject.of().with("FunctionName", substitution(function)).with("Payload", payload));
    }

    private static JsonObject lambdaRetrier() {
      return JsonObject.of()
          .with("ErrorEquals", ErrorNames.LAMBDA_TRANSIENT)
          .with("IntervalSeconds", 1)
          .with("MaxAttempts", 3)
          .with("BackoffRate", 2.0);
    }

    private static JsonObject retrier(List<String> errors, HopPolicy.Backoff backoff, boolean jitter) {
      JsonObject retrier = JsonObject.of()
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
      return JsonObject.of().with("ErrorEquals", List.of(ErrorNames.STATES_ALL)).with("ResultPath", "$.error").with("Next", next);
    }

    private static String substitution(String name) {
      return "${" + name + "}";
    }

    private static String display(GraphNode node) {
      return node.getName().isEmpty() ? node.getNodeId() : node.getName();
    }
  }

  /** The facts about the graph the emitter needs, checked once. */
  record GraphShape(Map<String, GraphNode> nodes, Map<String, List<GraphEdge>> out, Set<String> firstHops, int defaultMaxHops) {

    static GraphShape of(PipelineGraph graph, List<CompileProblem> problems) {
      if (graph.getGraphId().isBlank()) {
        problems.add(new CompileProblem("graph", "graph-identity", "graph_id is blank; every engine Lambda needs it to resolve the pinned version"));
      }
      if (graph.getVersion() < 1) {
        problems.add(new CompileProblem("graph", "graph-identity", "version is " + graph.getVersion() + "; only a stored version (1 or more) can be compiled, since executions pin to it"));
      }
      if (graph.getNodesCount() == 0) {
        problems.add(new CompileProblem("graph", "graph-nodes", "the graph has no nodes, so there is nothing to start at"));
      }
      Map<String, GraphNode> nodes = new LinkedHashMap<>();
      for (int i = 0; i < graph.getNodesCount(); i++) {
        GraphNode node = graph.getNodes(i);
        String where = node.getNodeId().isEmpty() ? "nodes[" + i + "]" : "node '" + node.getNodeId() + "'";
        if (node.getNodeId().isEmpty()) {
          problems.add(new CompileProblem(where, "node-id", "node_id is empty; Start needs an id to enter at"));
          continue;
        }
        if (nodes.putIfAbsent(node.getNodeId(), node) != null) {
          problems.add(new CompileProblem(where, "node-id", "node_id is used by more than one node; Start could not tell them apart"));
        }
        switch (node.getNodeType()) {
          case NODE_TYPE_INTAKE -> {
            if (node.getFilterConditionsCount() > 0 || node.getPreMappingsCount() > 0) {
              problems.add(new CompileProblem(where, "intake-runs-no-module",
                  "an INTAKE node runs no module, so it has no Prepare step for filter_conditions or pre_mappings; move them to the first processor"));
            }
          }
          case NODE_TYPE_PROCESSOR, NODE_TYPE_SINK -> {
            if (node.getModuleId().isBlank()) {
              problems.add(new CompileProblem(where, "module-id", "a " + node.getNodeType().name().substring("NODE_TYPE_".length())
                  + " node needs module_id: its Work state dispatches to topic pipestream.module.<module_id>"));
            }
          }
          default -> problems.add(new CompileProblem(where, "node-type", "node_type is " + node.getNodeType()
              + "; the compiler needs NODE_TYPE_INTAKE, NODE_TYPE_PROCESSOR or NODE_TYPE_SINK to know which states to emit"));
        }
      }
      Map<String, List<GraphEdge>> out = new LinkedHashMap<>();
      nodes.keySet().forEach(id -> out.put(id, new ArrayList<>()));
      Set<String> hasIncoming = new HashSet<>();
      for (int i = 0; i < graph.getEdgesCount(); i++) {
        GraphEdge edge = graph.getEdges(i);
        String where = "edge '" + (edge.getEdgeId().isEmpty() ? "edges[" + i + "]" : edge.getEdgeId()) + "' (" + edge.getFromNodeId() + " -> " + edge.getToNodeId() + ")";
        GraphNode from = nodes.get(edge.getFromNodeId());
        GraphNode to = nodes.get(edge.getToNodeId());
        if (from == null) {
          problems.add(new CompileProblem(where, "edge-endpoints", "from_node_id '" + edge.getFromNodeId() + "' is not a node of this graph"));
        }
        if (to == null) {
          problems.add(new CompileProblem(where, "edge-endpoints", "to_node_id '" + edge.getToNodeId() + "' is not a node of this graph"));
        } else if (to.getNodeType() == NodeType.NODE_TYPE_INTAKE) {
          problems.add(new CompileProblem(where, "edge-into-intake", "an edge cannot enter an INTAKE node: documents enter intake only by admission"));
        }
        if (edge.getMaxHops() < 0) {
          problems.add(new CompileProblem(where, "non-negative", "max_hops is " + edge.getMaxHops() + "; it must be positive, or 0 for the graph default"));
        }
        if (from != null && to != null) {
          out.get(from.getNodeId()).add(edge);
          hasIncoming.add(to.getNodeId());
        }
      }
      // Lower priority values are evaluated first; the sort is stable, so equal priorities keep
      // the order the author wrote them in.
      out.values().forEach(list -> list.sort(Comparator.comparingInt(GraphEdge::getPriority)));
      Set<String> firstHops = new HashSet<>();
      for (GraphNode node : nodes.values()) {
        if (node.getNodeType() == NodeType.NODE_TYPE_INTAKE) {
          out.get(node.getNodeId()).forEach(e -> firstHops.add(e.getToNodeId()));
        } else if (!hasIncoming.contains(node.getNodeId())) {
          firstHops.add(node.getNodeId());
        }
      }
      return new GraphShape(nodes, out, firstHops, Math.max(0, graph.getSettings().getDefaultMaxHops()));
    }

    boolean isModule(GraphNode node) {
      return node.getNodeType() != NodeType.NODE_TYPE_INTAKE;
    }

    boolean isFirstHop(String nodeId) {
      return firstHops.contains(nodeId);
    }

    List<GraphEdge> outEdges(String nodeId) {
      return out.get(nodeId);
    }

    List<HistoryBudget.Edge> budgetEdges(PipelineGraph graph) {
      List<HistoryBudget.Edge> edges = new ArrayList<>();
      for (List<GraphEdge> list : out.values()) {
        for (GraphEdge e : list) {
          edges.add(new HistoryBudget.Edge(e.getEdgeId(), e.getFromNodeId(), e.getToNodeId(), e.getMaxHops() > 0 ? e.getMaxHops() : defaultMaxHops));
        }
      }
      return edges;
    }
  }
}
