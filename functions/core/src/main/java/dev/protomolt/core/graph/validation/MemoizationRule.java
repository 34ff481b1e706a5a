package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/**
 * A node's memoization settings make sense (decision 1812): only nodes that run a module memoize,
 * the mode is a known one, and the module version is short printable text without spaces.
 */
final class MemoizationRule implements GraphRule {

  static final int MAX_MODULE_VERSION = 128;

  @Override
  public String name() {
    return "Memoization";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    for (GraphNode node : graph.getNodesList()) {
      String id = node.getNodeId();
      if (node.getMemoization() == Memoization.UNRECOGNIZED) {
        sink.node(
            id,
            "node '"
                + id
                + "' has an unknown memoization ("
                + node.getMemoizationValue()
                + "); use REPLAYS, ALWAYS or OFF");
      } else if (node.getNodeType() == NodeType.NODE_TYPE_INTAKE
          && node.getMemoization() != Memoization.MEMOIZATION_UNSPECIFIED) {
        sink.node(
            id,
            "intake node '" + id + "' sets memoization, but intake nodes run no module; remove it");
      }
      String version = node.getModuleVersion();
      if (version.length() > MAX_MODULE_VERSION
          || !version.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        sink.node(
            id,
            "node '"
                + id
                + "' has module_version '"
                + version
                + "': it must be at most "
                + MAX_MODULE_VERSION
                + " printable ASCII characters without spaces");
      }
    }
  }
}
