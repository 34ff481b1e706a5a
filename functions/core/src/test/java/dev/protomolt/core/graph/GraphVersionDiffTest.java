package dev.protomolt.core.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.core.graph.GraphVersionDiff.ElementChange;
import dev.protomolt.core.graph.GraphVersionDiff.FieldChange;
import dev.protomolt.core.graph.GraphVersionDiff.Kind;
import dev.protomolt.proto.config.v1.DesignModeConfig;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphVersionDiffTest {

  private static final PipelineGraph V1 = SampleGraphs.linear("g", 1);

  @Test
  void aVersionComparedWithItselfHasNoChangeEvenWhenItsBookkeepingDiffers() {
    PipelineGraph again = V1.toBuilder().setVersion(7).setCreatedBy("someone else").build();
    GraphVersionDiff diff = GraphVersionDiff.between(V1, again);
    assertThat(diff.same()).isTrue();
    assertThat(diff.fromVersion()).isEqualTo(1);
    assertThat(diff.toVersion()).isEqualTo(7);
  }

  @Test
  void movingANodeOnTheCanvasIsNoChangeToThePipeline() {
    PipelineGraph.Builder moved = V1.toBuilder();
    moved.setNodes(
        0,
        moved.getNodes(0).toBuilder()
            .setDesignConfig(DesignModeConfig.newBuilder().setCanvasX(300).setCanvasY(40)));
    assertThat(GraphVersionDiff.between(V1, moved.build()).same()).isTrue();
  }

  @Test
  void aChangedConditionTransportAndConfigAreNamedWithTheirValuesBeforeAndAfter() {
    PipelineGraph.Builder next = V1.toBuilder().setVersion(2);
    GraphEdge edge = next.getEdges(0);
    next.setEdges(
        0,
        edge.toBuilder()
            .setCondition("document.search_metadata.language == 'en'")
            .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    GraphNode parser = next.getNodes(1);
    next.setNodes(
        1,
        parser.toBuilder()
            .setCustomConfig(
                Struct.newBuilder()
                    .putFields("mode", Value.newBuilder().setStringValue("fast").build())));

    GraphVersionDiff diff = GraphVersionDiff.between(V1, next.build());

    assertThat(diff.edges()).hasSize(1);
    ElementChange changedEdge = diff.edges().get(0);
    assertThat(changedEdge.id()).isEqualTo(edge.getEdgeId());
    assertThat(changedEdge.kind()).isEqualTo(Kind.CHANGED);
    assertThat(changedEdge.summary()).isEqualTo(edge.getFromNodeId() + " -> " + edge.getToNodeId());
    assertThat(changedEdge.fields())
        .containsExactly(
            new FieldChange(
                "condition", edge.getCondition(), "document.search_metadata.language == 'en'"),
            new FieldChange("transport_type", "TRANSPORT_TYPE_PERSIST", "TRANSPORT_TYPE_MEMORY"));
    assertThat(diff.nodes())
        .containsExactly(
            new ElementChange(
                parser.getNodeId(),
                Kind.CHANGED,
                parser.getModuleId(),
                List.of(new FieldChange("custom_config", "", "{\"mode\":\"fast\"}"))));
    assertThat(diff.graph()).isEmpty();
  }

  @Test
  void celInAListedFilterReadsAsWrittenToo() {
    PipelineGraph.Builder next = V1.toBuilder();
    next.setNodes(
        1,
        next.getNodes(1).toBuilder()
            .addFilterConditions(
                dev.protomolt.proto.config.v1.FilterCondition.newBuilder()
                    .setCondition("document.search_metadata.title != '' && 1 < 2")));
    FieldChange change = GraphVersionDiff.between(V1, next.build()).nodes().get(0).fields().get(0);
    assertThat(change.field()).isEqualTo("filter_conditions");
    assertThat(change.before()).isEmpty();
    assertThat(change.after()).contains("\"document.search_metadata.title != '' && 1 < 2\"");
  }

  @Test
  void addedAndRemovedNodesAndEdgesAreListedWithWhatTheyAre() {
    PipelineGraph.Builder next = V1.toBuilder().setVersion(2).setName("renamed");
    GraphNode removed = next.getNodes(2);
    GraphEdge removedEdge = next.getEdges(next.getEdgesCount() - 1);
    next.removeNodes(2);
    next.removeEdges(next.getEdgesCount() - 1);
    next.addNodes(SampleGraphs.processor("embed", "embedder"));
    next.addEdges(SampleGraphs.edge("e-embed", "parse", "embed"));

    GraphVersionDiff diff = GraphVersionDiff.between(V1, next.build());

    assertThat(diff.nodes())
        .extracting(ElementChange::id, ElementChange::kind, ElementChange::summary)
        .contains(
            org.assertj.core.groups.Tuple.tuple(
                removed.getNodeId(), Kind.REMOVED, removed.getModuleId()),
            org.assertj.core.groups.Tuple.tuple("embed", Kind.ADDED, "embedder"));
    assertThat(diff.edges())
        .extracting(ElementChange::id, ElementChange::kind)
        .contains(
            org.assertj.core.groups.Tuple.tuple(removedEdge.getEdgeId(), Kind.REMOVED),
            org.assertj.core.groups.Tuple.tuple("e-embed", Kind.ADDED));
    assertThat(diff.graph()).containsExactly(new FieldChange("name", V1.getName(), "renamed"));
  }

  @Test
  void twoDifferentGraphsAreRefused() {
    assertThatThrownBy(() -> GraphVersionDiff.between(V1, SampleGraphs.linear("other", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'g' and 'other'");
  }
}
