package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.IndexPlan;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.Optional;

/**
 * PRODUCTION: every index plan a sink names is producible, meaning a sink module declared it in
 * the registry and it is the module this node runs, so a deploy never activates a sink that
 * writes an index nobody can materialize. Blank plan ids are {@link SinkRequiresPlansRule}'s.
 */
final class IndexPlanProducibleRule implements GraphRule {

  @Override
  public String name() {
    return "IndexPlanProducible";
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
      for (String planId : node.getIndexPlanIdsList()) {
        if (planId.isBlank()) {
          continue;
        }
        Optional<IndexPlan> plan = context.plans().plan(planId);
        if (plan.isEmpty()) {
          sink.node(
              node.getNodeId(),
              "sink node '"
                  + node.getNodeId()
                  + "' names index plan '"
                  + planId
                  + "', which no sink module has declared");
        } else if (!plan.get().getModuleId().equals(node.getModuleId())) {
          sink.node(
              node.getNodeId(),
              "sink node '"
                  + node.getNodeId()
                  + "' names index plan '"
                  + planId
                  + "', which module '"
                  + plan.get().getModuleId()
                  + "' produces, but the node runs module '"
                  + node.getModuleId()
                  + "'");
        }
      }
    }
  }
}
