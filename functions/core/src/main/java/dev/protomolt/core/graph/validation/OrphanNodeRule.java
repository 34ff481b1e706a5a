package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every node is reachable from an intake node; an unreachable node is configuration that can
 * never run. Skipped when the graph has no intake at all (IntakePresence reports that).
 */
final class OrphanNodeRule implements GraphRule {

  @Override
  public String name() {
    return "OrphanNode";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    List<GraphNode> intakes =
        graph.getNodesList().stream()
            .filter(n -> n.getNodeType() == NodeType.NODE_TYPE_INTAKE)
            .toList();
    if (intakes.isEmpty()) {
      return;
    }
    Map<String, Set<String>> out = new HashMap<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      out.computeIfAbsent(edge.getFromNodeId(), k -> new HashSet<>()).add(edge.getToNodeId());
    }
    Set<String> reached = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    intakes.forEach(
        n -> {
          reached.add(n.getNodeId());
          todo.push(n.getNodeId());
        });
    while (!todo.isEmpty()) {
      for (String next : out.getOrDefault(todo.pop(), Set.of())) {
        if (reached.add(next)) {
          todo.push(next);
        }
      }
    }
    Set<String> reported = new HashSet<>();
    for (GraphNode node : graph.getNodesList()) {
      if (!reached.contains(node.getNodeId()) && reported.add(node.getNodeId())) {
        sink.node(
            node.getNodeId(),
            "node '"
                + node.getNodeId()
                + "' is not reachable from any intake node, so no document can ever reach it");
      }
    }
  }
}
