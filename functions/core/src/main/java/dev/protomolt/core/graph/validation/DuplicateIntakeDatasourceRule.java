package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.HashMap;
import java.util.Map;

/**
 * One datasource feeds a graph through one intake node. Two intake nodes bound to the same
 * datasource would admit every document twice into the same graph.
 */
final class DuplicateIntakeDatasourceRule implements GraphRule {

  @Override
  public String name() {
    return "DuplicateIntakeDatasource";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    Map<String, String> firstNodeByDatasource = new HashMap<>();
    for (GraphNode node : graph.getNodesList()) {
      if (node.getNodeType() != NodeType.NODE_TYPE_INTAKE || node.getDatasourceId().isBlank()) {
        continue;
      }
      String first = firstNodeByDatasource.putIfAbsent(node.getDatasourceId(), node.getNodeId());
      if (first != null) {
        sink.node(
            node.getNodeId(),
            "intake node '"
                + node.getNodeId()
                + "' binds datasource '"
                + node.getDatasourceId()
                + "', already bound by intake node '"
                + first
                + "'; each document would be admitted twice");
      }
    }
  }
}
