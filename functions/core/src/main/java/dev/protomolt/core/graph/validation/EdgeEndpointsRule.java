package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashMap;
import java.util.Map;

/** Both ends of every edge name a node of this version; nothing routes into an intake node. */
final class EdgeEndpointsRule implements GraphRule {

  @Override
  public String name() {
    return "EdgeEndpoints";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    Map<String, GraphNode> nodes = new HashMap<>();
    graph.getNodesList().forEach(n -> nodes.putIfAbsent(n.getNodeId(), n));
    for (GraphEdge edge : graph.getEdgesList()) {
      String id = edge.getEdgeId();
      if (edge.getFromNodeId().isBlank()) {
        sink.edge(id, "edge '" + id + "' has a blank from_node_id");
      } else if (!nodes.containsKey(edge.getFromNodeId())) {
        sink.edge(
            id,
            "edge '"
                + id
                + "' starts at node '"
                + edge.getFromNodeId()
                + "', which is not in this graph version");
      }
      if (edge.getToNodeId().isBlank()) {
        sink.edge(id, "edge '" + id + "' has a blank to_node_id");
      } else if (!nodes.containsKey(edge.getToNodeId())) {
        sink.edge(
            id,
            "edge '"
                + id
                + "' ends at node '"
                + edge.getToNodeId()
                + "', which is not in this graph version");
      } else if (nodes.get(edge.getToNodeId()).getNodeType() == NodeType.NODE_TYPE_INTAKE) {
        sink.edge(
            id,
            "edge '"
                + id
                + "' routes into intake node '"
                + edge.getToNodeId()
                + "'; intake nodes are entry points and accept no incoming edges");
      }
    }
  }
}
