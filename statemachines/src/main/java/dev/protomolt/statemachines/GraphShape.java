package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The facts about the graph the emitter needs, checked once. */
record GraphShape(
    Map<String, GraphNode> nodes,
    Map<String, List<GraphEdge>> out,
    Set<String> firstHops,
    int defaultMaxHops) {

  static GraphShape of(PipelineGraph graph, List<CompileProblem> problems) {
    if (graph.getGraphId().isBlank()) {
      problems.add(
          new CompileProblem(
              "graph",
              "graph-identity",
              "graph_id is blank; every engine Lambda needs it to resolve the pinned version"));
    }
    if (graph.getVersion() < 1) {
      problems.add(
          new CompileProblem(
              "graph",
              "graph-identity",
              "version is "
                  + graph.getVersion()
                  + "; only a stored version (1 or more) can be compiled, since executions pin to"
                  + " it"));
    }
    if (graph.getNodesCount() == 0) {
      problems.add(
          new CompileProblem(
              "graph", "graph-nodes", "the graph has no nodes, so there is nothing to start at"));
    }
    Map<String, GraphNode> nodes = new LinkedHashMap<>();
    for (int i = 0; i < graph.getNodesCount(); i++) {
      GraphNode node = graph.getNodes(i);
      String where =
          node.getNodeId().isEmpty() ? "nodes[" + i + "]" : "node '" + node.getNodeId() + "'";
      if (node.getNodeId().isEmpty()) {
        problems.add(
            new CompileProblem(
                where, "node-id", "node_id is empty; Start needs an id to enter at"));
        continue;
      }
      if (nodes.putIfAbsent(node.getNodeId(), node) != null) {
        problems.add(
            new CompileProblem(
                where,
                "node-id",
                "node_id is used by more than one node; Start could not tell them apart"));
      }
      switch (node.getNodeType()) {
        case NODE_TYPE_INTAKE -> {
          if (node.getFilterConditionsCount() > 0 || node.getPreMappingsCount() > 0) {
            problems.add(
                new CompileProblem(
                    where,
                    "intake-runs-no-module",
                    "an INTAKE node runs no module, so it has no Prepare step for filter_conditions"
                        + " or pre_mappings; move them to the first processor"));
          }
        }
        case NODE_TYPE_PROCESSOR, NODE_TYPE_SINK -> {
          if (node.getModuleId().isBlank()) {
            problems.add(
                new CompileProblem(
                    where,
                    "module-id",
                    "a "
                        + node.getNodeType().name().substring("NODE_TYPE_".length())
                        + " node needs module_id: its Work state dispatches to topic"
                        + " pipestream.module.<module_id>"));
          }
        }
        default ->
            problems.add(
                new CompileProblem(
                    where,
                    "node-type",
                    "node_type is "
                        + node.getNodeType()
                        + "; the compiler needs NODE_TYPE_INTAKE, NODE_TYPE_PROCESSOR or"
                        + " NODE_TYPE_SINK to know which states to emit"));
      }
    }
    Map<String, List<GraphEdge>> out = new LinkedHashMap<>();
    nodes.keySet().forEach(id -> out.put(id, new ArrayList<>()));
    Set<String> hasIncoming = new HashSet<>();
    for (int i = 0; i < graph.getEdgesCount(); i++) {
      GraphEdge edge = graph.getEdges(i);
      String where =
          "edge '"
              + (edge.getEdgeId().isEmpty() ? "edges[" + i + "]" : edge.getEdgeId())
              + "' ("
              + edge.getFromNodeId()
              + " -> "
              + edge.getToNodeId()
              + ")";
      GraphNode from = nodes.get(edge.getFromNodeId());
      GraphNode to = nodes.get(edge.getToNodeId());
      if (from == null) {
        problems.add(
            new CompileProblem(
                where,
                "edge-endpoints",
                "from_node_id '" + edge.getFromNodeId() + "' is not a node of this graph"));
      }
      if (to == null) {
        problems.add(
            new CompileProblem(
                where,
                "edge-endpoints",
                "to_node_id '" + edge.getToNodeId() + "' is not a node of this graph"));
      } else if (to.getNodeType() == NodeType.NODE_TYPE_INTAKE) {
        problems.add(
            new CompileProblem(
                where,
                "edge-into-intake",
                "an edge cannot enter an INTAKE node: documents enter intake only by admission"));
      }
      if (edge.getMaxHops() < 0) {
        problems.add(
            new CompileProblem(
                where,
                "non-negative",
                "max_hops is "
                    + edge.getMaxHops()
                    + "; it must be positive, or 0 for the graph default"));
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
    return new GraphShape(
        nodes, out, firstHops, Math.max(0, graph.getSettings().getDefaultMaxHops()));
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
        edges.add(
            new HistoryBudget.Edge(
                e.getEdgeId(),
                e.getFromNodeId(),
                e.getToNodeId(),
                e.getMaxHops() > 0 ? e.getMaxHops() : defaultMaxHops));
      }
    }
    return edges;
  }
}
