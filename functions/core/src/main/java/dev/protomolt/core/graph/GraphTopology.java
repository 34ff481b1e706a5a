package dev.protomolt.core.graph;

import dev.protomolt.core.cel.CompiledExpression;
import dev.protomolt.core.cel.ExpressionSite;
import dev.protomolt.core.cel.GraphExpressions;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One graph version as the runtime reads it: nodes by id, outgoing edges grouped by source node in
 * evaluation order (priority, then edge id so ties are deterministic), and every CEL expression
 * already compiled. Immutable, so a reader holding it sees exactly one coherent version.
 */
public final class GraphTopology {

  /** Evaluation order of competing edges: lower priority first, ties broken by edge id. */
  public static final Comparator<GraphEdge> EVALUATION_ORDER =
      Comparator.comparingInt(GraphEdge::getPriority).thenComparing(GraphEdge::getEdgeId);

  private final PipelineGraph graph;
  private final Map<String, GraphNode> nodesById;
  private final Map<String, List<GraphEdge>> edgesBySource;
  private final Map<String, List<Route>> routesBySource;
  private final GraphExpressions expressions;

  private GraphTopology(
      PipelineGraph graph,
      Map<String, GraphNode> nodesById,
      Map<String, List<GraphEdge>> edgesBySource,
      GraphExpressions expressions) {
    this.graph = graph;
    this.nodesById = nodesById;
    this.edgesBySource = edgesBySource;
    this.expressions = expressions;
    // Pair each edge with its compiled condition once, so routing does no key building or lookup.
    Map<String, List<Route>> routes = new HashMap<>();
    edgesBySource.forEach(
        (from, edges) ->
            routes.put(
                from,
                edges.stream()
                    .map(
                        e ->
                            new Route(
                                e,
                                e.getCondition().isBlank()
                                    ? null
                                    : expressions
                                        .find(ExpressionSite.edgeKey(e.getEdgeId()))
                                        .orElseThrow()))
                    .toList()));
    this.routesBySource = Map.copyOf(routes);
  }

  /**
   * An outgoing edge ready to evaluate.
   *
   * @param condition the compiled condition, or null when the edge is unconditional
   */
  public record Route(GraphEdge edge, CompiledExpression condition) {}

  /** Indexes the graph and compiles all of its expressions; this is the only compile point. */
  public static GraphTopology load(PipelineGraph graph, PipelineCelEnvironment env) {
    Map<String, GraphNode> nodes = new LinkedHashMap<>();
    for (GraphNode node : graph.getNodesList()) {
      if (nodes.putIfAbsent(node.getNodeId(), node) != null) {
        throw new IllegalArgumentException(
            "graph "
                + graph.getGraphId()
                + " version "
                + graph.getVersion()
                + " has two nodes with node_id '"
                + node.getNodeId()
                + "'");
      }
    }
    Map<String, List<GraphEdge>> grouped = new HashMap<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      grouped.computeIfAbsent(edge.getFromNodeId(), k -> new ArrayList<>()).add(edge);
    }
    Map<String, List<GraphEdge>> sorted = new HashMap<>();
    grouped.forEach(
        (from, edges) -> {
          edges.sort(EVALUATION_ORDER);
          sorted.put(from, List.copyOf(edges));
        });
    return new GraphTopology(
        graph, Map.copyOf(nodes), Map.copyOf(sorted), GraphExpressions.compile(graph, env));
  }

  public String graphId() {
    return graph.getGraphId();
  }

  public String clusterId() {
    return graph.getClusterId();
  }

  public long version() {
    return graph.getVersion();
  }

  public PipelineGraph graph() {
    return graph;
  }

  public Optional<GraphNode> node(String nodeId) {
    return Optional.ofNullable(nodesById.get(nodeId));
  }

  public Map<String, GraphNode> nodesById() {
    return nodesById;
  }

  /** Outgoing edges of a node in evaluation order; empty for a leaf. */
  public List<GraphEdge> edgesFrom(String nodeId) {
    return edgesBySource.getOrDefault(nodeId, List.of());
  }

  /** Outgoing edges with their compiled conditions, in evaluation order. */
  public List<Route> routesFrom(String nodeId) {
    return routesBySource.getOrDefault(nodeId, List.of());
  }

  public GraphExpressions expressions() {
    return expressions;
  }
}
