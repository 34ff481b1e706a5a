package dev.protomolt.engine.deadletters;

import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which topic a node's dead letters go to: its {@code dlq_config.topic_override}, else {@code
 * pipestream.<cluster>.<graph>.<node>.dlq}. One rule for the dead-letter door and the gateway's
 * per-node count, so both read the topics the DLQ hop writes.
 */
public final class DeadLetterTopicNames {

  private DeadLetterTopicNames() {}

  public static String of(PipelineGraph graph, GraphNode node) {
    return node.getDlqConfig().getTopicOverride().isEmpty()
        ? EventBus.dlqTopic(graph.getClusterId(), graph.getGraphId(), node.getNodeId())
        : node.getDlqConfig().getTopicOverride();
  }

  /** The topics {@code nodeId}'s letters went to in any of {@code versions}, in name order. */
  public static Set<String> ofNode(Collection<StoredGraph> versions, String nodeId) {
    Set<String> topics = new TreeSet<>();
    for (StoredGraph v : versions) {
      for (GraphNode node : v.graph().getNodesList()) {
        if (node.getNodeId().equals(nodeId)) {
          topics.add(of(v.graph(), node));
        }
      }
    }
    return topics;
  }
}
