package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashMap;
import java.util.Map;

/**
 * MEMORY edges are fast but not replayable and share a bounded frontier (five in flight per graph
 * by default). A node fanning out on more MEMORY edges than the frontier holds will always wait
 * and may duck to CACHE; a MEMORY edge out of an intake node leaves no durable first copy. Both are
 * warnings: legal, but rarely what the author meant.
 */
final class MemoryFanOutRule implements GraphRule {

  static final int MEMORY_FRONTIER = 5;

  @Override
  public String name() {
    return "MemoryEdges";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    Map<String, GraphNode> nodes = new HashMap<>();
    graph.getNodesList().forEach(n -> nodes.putIfAbsent(n.getNodeId(), n));
    Map<String, Integer> memoryOut = new HashMap<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      if (edge.getTransportType() != TransportType.TRANSPORT_TYPE_MEMORY) {
        continue;
      }
      memoryOut.merge(edge.getFromNodeId(), 1, Integer::sum);
      GraphNode from = nodes.get(edge.getFromNodeId());
      if (from != null && from.getNodeType() == NodeType.NODE_TYPE_INTAKE) {
        sink.warnNode(
            from.getNodeId(),
            "edge '"
                + edge.getEdgeId()
                + "' leaves intake node '"
                + from.getNodeId()
                + "' on MEMORY: the first hop will have no replayable copy");
      }
    }
    memoryOut.forEach(
        (nodeId, count) -> {
          if (count > MEMORY_FRONTIER) {
            sink.warnNode(
                nodeId,
                "node '"
                    + nodeId
                    + "' fans out on "
                    + count
                    + " MEMORY edges, more "
                    + "than the MEMORY frontier of "
                    + MEMORY_FRONTIER
                    + "; the extra hops will wait and may duck to CACHE");
          }
        });
  }
}
