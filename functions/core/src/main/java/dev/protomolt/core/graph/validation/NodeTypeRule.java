package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/**
 * Every node says what it is, and carries what its type needs: processors and sinks run a module,
 * intake nodes bind a datasource and run none.
 */
final class NodeTypeRule implements GraphRule {

  @Override
  public String name() {
    return "NodeType";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    for (GraphNode node : graph.getNodesList()) {
      String id = node.getNodeId();
      switch (node.getNodeType()) {
        case NODE_TYPE_UNSPECIFIED, UNRECOGNIZED ->
            sink.node(id, "node '" + id + "' has no node_type: set INTAKE, PROCESSOR or SINK");
        case NODE_TYPE_INTAKE -> {
          if (!node.getModuleId().isBlank()) {
            sink.node(
                id,
                "intake node '"
                    + id
                    + "' names module_id '"
                    + node.getModuleId()
                    + "', but intake nodes run no module; move the module to a PROCESSOR node");
          }
        }
        case NODE_TYPE_PROCESSOR, NODE_TYPE_SINK -> {
          if (node.getModuleId().isBlank()) {
            sink.node(
                id,
                (node.getNodeType() == NodeType.NODE_TYPE_SINK ? "sink" : "processor")
                    + " node '"
                    + id
                    + "' has no module_id: it must name the module service it runs");
          }
        }
      }
      if (node.getHeartbeatSeconds() < 0 || node.getTimeoutSeconds() < 0) {
        sink.node(id, "node '" + id + "' has a negative heartbeat_seconds or timeout_seconds");
      }
    }
  }
}
