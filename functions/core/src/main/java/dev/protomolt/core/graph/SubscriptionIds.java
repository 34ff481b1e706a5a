package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.List;

/** Derives a version's datasource subscriptions from its INTAKE nodes: the graph is the source of truth. */
public final class SubscriptionIds {

  private SubscriptionIds() {}

  /** {@code {graph_id}:{version}:{datasource_id}}. */
  public static String subscriptionId(String graphId, long version, String datasourceId) {
    return graphId + ":" + version + ":" + datasourceId;
  }

  public static List<DatasourceSubscription> derive(PipelineGraph graph) {
    List<DatasourceSubscription> out = new ArrayList<>();
    for (GraphNode node : graph.getNodesList()) {
      if (node.getNodeType() == NodeType.NODE_TYPE_INTAKE && !node.getDatasourceId().isBlank()) {
        out.add(
            DatasourceSubscription.newBuilder()
                .setSubscriptionId(
                    subscriptionId(graph.getGraphId(), graph.getVersion(), node.getDatasourceId()))
                .setGraphId(graph.getGraphId())
                .setVersion(graph.getVersion())
                .setDatasourceId(node.getDatasourceId())
                .setClusterId(graph.getClusterId())
                .setAccountId(graph.getAccountId())
                .setIntakeNodeId(node.getNodeId())
                .build());
      }
    }
    return out;
  }
}
