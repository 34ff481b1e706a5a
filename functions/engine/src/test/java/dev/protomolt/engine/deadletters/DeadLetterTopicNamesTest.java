package dev.protomolt.engine.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.proto.config.v1.DlqConfig;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dead-letter topic rule the door and the gateway's per-node count share. */
class DeadLetterTopicNamesTest {

  @Test
  void aNodesTopicsAreEveryVersionsDefaultOrOverrideAndNoOtherNodes() {
    PipelineGraph v1 =
        PipelineGraph.newBuilder()
            .setGraphId("g")
            .setClusterId("c")
            .addNodes(GraphNode.newBuilder().setNodeId("parse"))
            .addNodes(GraphNode.newBuilder().setNodeId("chunk"))
            .build();
    PipelineGraph v2 =
        v1.toBuilder()
            .setNodes(
                0,
                GraphNode.newBuilder()
                    .setNodeId("parse")
                    .setDlqConfig(DlqConfig.newBuilder().setTopicOverride("shared.dlq")))
            .build();
    List<StoredGraph> versions =
        List.of(new StoredGraph(v1, false, ""), new StoredGraph(v2, true, ""));

    assertThat(DeadLetterTopicNames.ofNode(versions, "parse"))
        .containsExactly("pipestream.c.g.parse.dlq", "shared.dlq");
    assertThat(DeadLetterTopicNames.ofNode(versions, "chunk"))
        .containsExactly("pipestream.c.g.chunk.dlq");
    assertThat(DeadLetterTopicNames.ofNode(versions, "embed")).isEmpty();
  }
}
