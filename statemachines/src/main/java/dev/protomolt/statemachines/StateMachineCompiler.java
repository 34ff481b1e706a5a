package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
      List.of(
          PREPARE_FUNCTION_ARN,
          DISPATCH_FUNCTION_ARN,
          COMPLETE_FUNCTION_ARN,
          DLQ_FUNCTION_ARN,
          STATE_MACHINE_VERSION_ARN);

  static final String LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke";
  static final String LAMBDA_WAIT_FOR_TOKEN = "arn:aws:states:::lambda:invoke.waitForTaskToken";
  static final String START_EXECUTION = "arn:aws:states:::states:startExecution";

  static final String START = "Start";
  static final String UNKNOWN_NODE = "UnknownNode";
  static final String UNKNOWN_DESTINATION = "UnknownDestination";

  /** The reprocessing cap the seeds use when a node's DLQ config leaves it at 0. */
  static final int DEFAULT_MAX_REPROCESS = 3;

  /** How long N.DeadLettered waits for the dlq function's answer to its token (decision 1525). */
  static final int DEAD_LETTER_HOLD_SECONDS = 300;

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
        policies.put(
            node.getNodeId(),
            HopPolicy.resolve(
                node, graph.getSettings(), firstHop, "node '" + node.getNodeId() + "'", problems));
      }
    }
    if (!problems.isEmpty()) {
      throw new GraphCompileException(graphName, problems);
    }
    StateEmitter emitter = new StateEmitter(graph, shape, policies);
    JsonObject definition = emitter.definition();

    for (CompileProblem p : AslRules.check(definition)) {
      problems.add(new CompileProblem(emitter.describe(p.location()), p.rule(), p.message()));
    }
    HistoryBudget.Estimate estimate =
        HistoryBudget.estimate(emitter.costs(), shape.budgetEdges(graph), problems);
    String compact = JsonWriter.writeCompact(definition);
    DeployLimits.check(definition, compact, graph.getNodesCount(), problems);
    if (!problems.isEmpty()) {
      throw new GraphCompileException(graphName, problems);
    }
    return new CompiledStateMachine(
        JsonWriter.write(definition), compact, estimate.path(), estimate.events());
  }
}
