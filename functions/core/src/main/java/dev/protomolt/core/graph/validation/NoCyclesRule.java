package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pipeline is a DAG. Every elementary cycle is reported (Johnson's algorithm), each as its node
 * walk and the edges that close it, so the author sees every loop at once rather than one per
 * deploy attempt.
 */
final class NoCyclesRule implements GraphRule {

  /** Beyond this many cycles the graph is better redrawn than listed. */
  static final int MAX_REPORTED = 25;

  @Override
  public String name() {
    return "NoCycles";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    List<String> order = new ArrayList<>();
    Set<String> known = new LinkedHashSet<>();
    for (GraphNode node : graph.getNodesList()) {
      if (known.add(node.getNodeId())) {
        order.add(node.getNodeId());
      }
    }
    Map<String, Set<String>> adjacency = new HashMap<>();
    Map<String, String> edgeOf = new LinkedHashMap<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      if (known.contains(edge.getFromNodeId()) && known.contains(edge.getToNodeId())) {
        adjacency
            .computeIfAbsent(edge.getFromNodeId(), k -> new LinkedHashSet<>())
            .add(edge.getToNodeId());
        edgeOf.putIfAbsent(edge.getFromNodeId() + "\u0000" + edge.getToNodeId(), edge.getEdgeId());
      }
    }
    List<List<String>> cycles = ElementaryCycles.find(order, adjacency, MAX_REPORTED + 1);
    for (int c = 0; c < Math.min(cycles.size(), MAX_REPORTED); c++) {
      List<String> cycle = cycles.get(c);
      List<String> edges = new ArrayList<>();
      for (int i = 0; i < cycle.size(); i++) {
        String from = cycle.get(i);
        String to = cycle.get((i + 1) % cycle.size());
        edges.add(edgeOf.get(from + "\u0000" + to));
      }
      String walk = String.join(" -> ", cycle) + " -> " + cycle.getFirst();
      String closing = edges.getLast();
      sink.at(
          cycle.getFirst(),
          closing,
          "",
          0,
          "cycle "
              + walk
              + " (edges "
              + String.join(", ", edges)
              + "); a pipeline must be acyclic: remove or redirect one of these edges");
    }
    if (cycles.size() > MAX_REPORTED) {
      sink.graph(
          "more than " + MAX_REPORTED + " cycles; only the first " + MAX_REPORTED + " are listed");
    }
  }
}
