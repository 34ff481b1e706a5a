package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashSet;
import java.util.Set;

/** Edge numbers make sense: max_hops is not negative, transport is known, no duplicate links. */
final class EdgeSettingsRule implements GraphRule {

  @Override
  public String name() {
    return "EdgeSettings";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    if (graph.getSettings().getDefaultMaxHops() < 0) {
      sink.graph(
          "settings.default_max_hops is negative ("
              + graph.getSettings().getDefaultMaxHops()
              + "); use 0 for no limit");
    }
    Set<String> links = new HashSet<>();
    for (GraphEdge edge : graph.getEdgesList()) {
      String id = edge.getEdgeId();
      if (edge.getMaxHops() < 0) {
        sink.edge(
            id,
            "edge '"
                + id
                + "' has negative max_hops ("
                + edge.getMaxHops()
                + "); use 0 for the graph default");
      }
      if (edge.getTransportType() == TransportType.UNRECOGNIZED) {
        sink.edge(
            id, "edge '" + id + "' has an unknown transport_type; use PERSIST, CACHE or MEMORY");
      }
      String link =
          edge.getFromNodeId() + "\u0000" + edge.getToNodeId() + "\u0000" + edge.getCondition();
      if (!links.add(link)) {
        sink.edge(
            id,
            "edge '"
                + id
                + "' repeats another edge from '"
                + edge.getFromNodeId()
                + "' to '"
                + edge.getToNodeId()
                + "' with the same condition; the document would be "
                + "delivered to '"
                + edge.getToNodeId()
                + "' twice");
      }
    }
  }
}
