package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The dead-letter topics a compiled graph publishes to: one per node, {@code
 * pipestream.<cluster>.<graph>.<node>.dlq} unless the node overrides it, and none for a node whose
 * dead letters are kept but not published ({@code dlq_config.enabled=false}, decision 0305). The
 * compiler writes these names into each node's DLQ state and activation creates them, so both take
 * them from here.
 */
public final class DeadLetterTopics {

  private DeadLetterTopics() {}

  /** The topic {@code node}'s DLQ state names, whether or not it publishes there. */
  public static String topic(PipelineGraph graph, GraphNode node) {
    String override = node.getDlqConfig().getTopicOverride();
    return override.isEmpty()
        ? "pipestream."
            + graph.getClusterId()
            + "."
            + graph.getGraphId()
            + "."
            + node.getNodeId()
            + ".dlq"
        : override;
  }

  /** A node without {@code dlq_config} publishes (the seeds' default); a disabled one does not. */
  public static boolean publishes(GraphNode node) {
    return !node.hasDlqConfig() || node.getDlqConfig().getEnabled();
  }

  /** Every topic the graph's DLQ states publish to, in node order, without repeats. */
  public static List<String> of(PipelineGraph graph) {
    Set<String> topics = new LinkedHashSet<>();
    for (GraphNode node : graph.getNodesList()) {
      if (publishes(node)) {
        topics.add(topic(graph, node));
      }
    }
    return List.copyOf(topics);
  }
}
