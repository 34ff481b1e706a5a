package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/** PRODUCTION: every sink names at least one index plan, and none of them is blank. */
final class SinkRequiresPlansRule implements GraphRule {

  @Override
  public String name() {
    return "SinkRequiresPlans";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_PRODUCTION;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    for (GraphNode node : graph.getNodesList()) {
      if (node.getNodeType() != NodeType.NODE_TYPE_SINK) {
        continue;
      }
      if (node.getIndexPlanIdsCount() == 0) {
        sink.node(
            node.getNodeId(),
            "sink node '"
                + node.getNodeId()
                + "' has no index_plan_ids; "
                + "a PRODUCTION sink must name the index plans it writes");
      } else if (node.getIndexPlanIdsList().stream().anyMatch(String::isBlank)) {
        sink.node(
            node.getNodeId(), "sink node '" + node.getNodeId() + "' lists a blank index plan id");
      }
    }
  }
}
