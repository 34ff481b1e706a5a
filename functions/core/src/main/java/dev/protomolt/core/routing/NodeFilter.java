package dev.protomolt.core.routing;

import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.CompiledExpression;
import dev.protomolt.core.cel.ExpressionSite;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphNode;
import java.util.Map;

/**
 * Evaluates a node's filter conditions in order; the first that does not hold applies its action.
 * An evaluation error propagates as {@link dev.protomolt.core.cel.CelEvaluationFailure}: a broken
 * filter is a failed hop, not a silent drop.
 */
public final class NodeFilter {

  private NodeFilter() {}

  public static FilterOutcome evaluate(GraphTopology topology, GraphNode node, CelInput input) {
    Map<String, Object> activation = input.activation();
    for (int i = 0; i < node.getFilterConditionsCount(); i++) {
      FilterCondition filter = node.getFilterConditions(i);
      if (filter.getCondition().isBlank()) {
        continue;
      }
      String key = ExpressionSite.filterKey(node.getNodeId(), i);
      CompiledExpression condition =
          topology
              .expressions()
              .find(key)
              .orElseThrow(() -> new IllegalStateException(key + " was not compiled at load"));
      if (!condition.test(activation)) {
        String description =
            filter.getDescription().isBlank() ? filter.getCondition() : filter.getDescription();
        return filter.getAction() == FilterAction.FILTER_ACTION_SKIP
            ? new FilterOutcome.Skip(i, description)
            : new FilterOutcome.Drop(i, description);
      }
    }
    return new FilterOutcome.Run();
  }
}
