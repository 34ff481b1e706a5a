package dev.protomolt.core.graph.validation;

import dev.protomolt.core.routing.InlineBudget;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashMap;
import java.util.Map;

/**
 * MEMORY edges are fast but not replayable. Their exposure is bounded by the one limit this design
 * has: every inline copy a hop hands on shares the hop's inline budget of stream JSON ({@link
 * InlineBudget}), and a copy past what is left ducks to CACHE (never PERSIST) or, for a
 * right-to-be-forgotten document, is rejected. A node fanning out on two or more MEMORY edges
 * splits that budget, so the warning states the share each copy gets; a MEMORY edge out of an
 * intake node leaves no durable first copy. Both are warnings: legal, but rarely what the author
 * meant.
 */
final class MemoryFanOutRule implements GraphRule {

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
          if (count > 1) {
            sink.warnNode(
                nodeId,
                "node '"
                    + nodeId
                    + "' fans out on "
                    + count
                    + " MEMORY edges: their inline copies share one hop budget of "
                    + InlineBudget.DEFAULT_BYTES
                    + " bytes of stream JSON (about "
                    + InlineBudget.DEFAULT_BYTES / count
                    + " each); a copy past what is left ducks to CACHE, never PERSIST, and a"
                    + " right-to-be-forgotten document is rejected instead");
          }
        });
  }
}
