package dev.protomolt.core.routing;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.cel.CelEvaluationFailure;
import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeFilterTest {

  private static final PipelineCelEnvironment ENV = PipelineCelEnvironment.create();

  private static GraphTopology withFilters(FilterCondition... filters) {
    PipelineGraph g = linear("g", 1);
    GraphNode parse = g.getNodes(1).toBuilder().addAllFilterConditions(List.of(filters)).build();
    return GraphTopology.load(g.toBuilder().setNodes(1, parse).build(), ENV);
  }

  private static CelInput doc(String language, String skip) {
    return new CelInput(
        PipeDoc.newBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage(language))
            .build(),
        PipeStream.newBuilder()
            .setMetadata(StreamMetadata.newBuilder().putContextParams("skip_processing", skip))
            .build());
  }

  private static FilterOutcome run(GraphTopology t, CelInput input) {
    return NodeFilter.evaluate(t, t.node("parse").orElseThrow(), input);
  }

  @Test
  void allConditionsHoldRunsTheModule() {
    GraphTopology t =
        withFilters(
            FilterCondition.newBuilder()
                .setCondition("document.search_metadata.language == 'en'")
                .build());
    assertThat(run(t, doc("en", "false"))).isEqualTo(new FilterOutcome.Run());
  }

  @Test
  void unspecifiedActionDropsAsATypedDisposition() {
    GraphTopology t =
        withFilters(
            FilterCondition.newBuilder()
                .setCondition("document.search_metadata.language == 'en'")
                .build());
    assertThat(run(t, doc("fr", "false")))
        .isEqualTo(new FilterOutcome.Drop(0, "document.search_metadata.language == 'en'"));
  }

  @Test
  void skipBypassesTheModuleAndTheFirstFailingConditionDecides() {
    GraphTopology t =
        withFilters(
            FilterCondition.newBuilder()
                .setCondition("stream.metadata.context_params['skip_processing'] != 'true'")
                .setAction(FilterAction.FILTER_ACTION_SKIP)
                .setDescription("processing disabled")
                .build(),
            FilterCondition.newBuilder()
                .setCondition("document.search_metadata.language == 'en'")
                .setAction(FilterAction.FILTER_ACTION_DROP)
                .build());
    assertThat(run(t, doc("fr", "true")))
        .isEqualTo(new FilterOutcome.Skip(0, "processing disabled"));
    assertThat(run(t, doc("fr", "false"))).isInstanceOf(FilterOutcome.Drop.class);
  }

  @Test
  void anEvaluationErrorIsNotASilentDrop() {
    GraphTopology t =
        withFilters(
            FilterCondition.newBuilder()
                .setCondition("metadata.context_params['tenant'] == 'a'")
                .build());
    assertThatThrownBy(() -> run(t, doc("en", "false")))
        .isInstanceOf(CelEvaluationFailure.class)
        .hasMessageContaining("node:parse:filter:0");
  }
}
