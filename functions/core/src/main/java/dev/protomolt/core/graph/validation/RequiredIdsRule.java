package dev.protomolt.core.graph.validation;

import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/** graph_id, every node_id and every edge_id must be non-blank: they are addresses. */
final class RequiredIdsRule implements GraphRule {

  @Override
  public String name() {
    return "RequiredIds";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    if (graph.getGraphId().isBlank()) {
      sink.graph("graph_id is blank: a graph id is part of every stored document's address");
    } else if (graph.getGraphId().contains(":") && !graph.getGraphId().startsWith("intake:")) {
      sink.graph(
          "graph_id '"
              + graph.getGraphId()
              + "' contains ':', which is reserved for "
              + "intake graphs (intake:<accountId>) and subscription keys");
    } else if (StateMachineNames.RESERVED_GRAPH_IDS.contains(graph.getGraphId())) {
      sink.graph(
          "graph_id '"
              + graph.getGraphId()
              + "' is reserved: it names the platform's own state machine"
              + " protomolt-<env>-"
              + graph.getGraphId());
    }
    for (int i = 0; i < graph.getNodesCount(); i++) {
      if (graph.getNodes(i).getNodeId().isBlank()) {
        sink.node(
            "", "nodes[" + i + "] ('" + graph.getNodes(i).getName() + "') has a blank node_id");
      }
    }
    for (int i = 0; i < graph.getEdgesCount(); i++) {
      if (graph.getEdges(i).getEdgeId().isBlank()) {
        sink.edge(
            "",
            "edges["
                + i
                + "] ("
                + graph.getEdges(i).getFromNodeId()
                + " -> "
                + graph.getEdges(i).getToNodeId()
                + ") has a blank edge_id");
      }
    }
  }
}
