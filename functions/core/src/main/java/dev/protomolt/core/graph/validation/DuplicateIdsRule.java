package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashSet;
import java.util.Set;

/** Node ids and edge ids are unique within a version; a duplicate makes routing ambiguous. */
final class DuplicateIdsRule implements GraphRule {

  @Override
  public String name() {
    return "DuplicateIds";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    Set<String> nodes = new HashSet<>();
    Set<String> reportedNodes = new HashSet<>();
    for (GraphNode node : graph.getNodesList()) {
      String id = node.getNodeId();
      if (!id.isBlank() && !nodes.add(id) && reportedNodes.add(id)) {
        sink.node(id, "node_id '" + id + "' is used by more than one node");
      }
    }
    Set<String> edges = new HashSet<>();
    Set<String> reportedEdges = new HashSet<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      String id = edge.getEdgeId();
      if (!id.isBlank() && !edges.add(id) && reportedEdges.add(id)) {
        sink.edge(id, "edge_id '" + id + "' is used by more than one edge");
      }
    }
  }
}
