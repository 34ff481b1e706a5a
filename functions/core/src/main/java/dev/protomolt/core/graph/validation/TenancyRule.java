package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.Optional;

/**
 * DESIGN and up: the graph names its owning account, and every intake datasource exists and either
 * belongs to that account or was granted to it by its owner (an explicit, revocable grant), so one
 * tenant's graph can never subscribe to another tenant's data without that tenant's consent.
 */
final class TenancyRule implements GraphRule {

  @Override
  public String name() {
    return "Tenancy";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DESIGN;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    if (graph.getAccountId().isBlank()) {
      sink.graph(
          "graph '"
              + graph.getGraphId()
              + "' has no account_id; DESIGN and PRODUCTION "
              + "graphs must name the account that owns them");
      return;
    }
    for (GraphNode node : graph.getNodesList()) {
      if (node.getNodeType() != NodeType.NODE_TYPE_INTAKE || node.getDatasourceId().isBlank()) {
        continue;
      }
      Optional<String> owner = context.tenancy().datasourceAccount(node.getDatasourceId());
      if (owner.isEmpty()) {
        sink.node(
            node.getNodeId(),
            "intake node '"
                + node.getNodeId()
                + "' binds datasource '"
                + node.getDatasourceId()
                + "', which is not registered");
      } else if (!owner.get().equals(graph.getAccountId())
          && !context.tenancy().granted(node.getDatasourceId(), graph.getAccountId())) {
        sink.node(
            node.getNodeId(),
            "intake node '"
                + node.getNodeId()
                + "' binds datasource '"
                + node.getDatasourceId()
                + "' of account '"
                + owner.get()
                + "', but the graph belongs to '"
                + graph.getAccountId()
                + "' and '"
                + owner.get()
                + "' has not granted it to '"
                + graph.getAccountId()
                + "'");
      }
    }
  }
}
