package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/** A graph needs at least one intake node, and each intake node names its datasource. */
final class IntakePresenceRule implements GraphRule {

  @Override
  public String name() {
    return "IntakePresence";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    boolean any = false;
    for (GraphNode node : graph.getNodesList()) {
      if (node.getNodeType() == NodeType.NODE_TYPE_INTAKE) {
        any = true;
        if (node.getDatasourceId().isBlank()) {
          sink.node(
              node.getNodeId(),
              "intake node '"
                  + node.getNodeId()
                  + "' has no datasource_id: the datasource is what subscribes this graph to"
                  + " documents");
        }
      }
    }
    if (!any) {
      sink.graph(
          "graph '"
              + graph.getGraphId()
              + "' has no INTAKE node, so no document can "
              + "ever enter it; add an intake node bound to a datasource");
    }
  }
}
