package dev.protomolt.core.routing;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.cel.MappingPhase;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import org.junit.jupiter.api.Test;

class FieldMappingsTest {

  private static final PipelineCelEnvironment ENV = PipelineCelEnvironment.create();
  private static final PipeDoc DOC =
      PipeDoc.newBuilder()
          .setDocId("d")
          .setSearchMetadata(
              SearchMetadata.newBuilder()
                  .setTitle("Report")
                  .setAuthor("Ann")
                  .setSourcePath("/a/b.pdf")
                  .addKeywords("x")
                  .addKeywords("y")
                  .setContentLength(42))
          .build();
  private static final PipeStream STREAM =
      PipeStream.newBuilder()
          .setMetadata(StreamMetadata.newBuilder().putContextParams("team", "search"))
          .build();

  private static PipeDoc apply(MappingPhase phase, ProcessingMapping... mappings) {
    PipelineGraph g = linear("g", 1);
    GraphNode.Builder parse = g.getNodes(1).toBuilder();
    for (ProcessingMapping m : mappings) {
      if (phase == MappingPhase.PRE) {
        parse.addPreMappings(m);
      } else {
        parse.addPostMappings(m);
      }
    }
    GraphTopology t = GraphTopology.load(g.toBuilder().setNodes(1, parse).build(), ENV);
    return FieldMappings.apply(t, t.node("parse").orElseThrow(), phase, DOC, STREAM);
  }

  private static ProcessingMapping.Builder mapping(MappingType type, String target) {
    return ProcessingMapping.newBuilder().setMappingType(type).setTargetFieldPath(target);
  }

  @Test
  void directCopiesOneField() {
    PipeDoc out =
        apply(
            MappingPhase.PRE,
            mapping(MappingType.MAPPING_TYPE_DIRECT, "search_metadata.body")
                .addSourceFieldPaths("search_metadata.title")
                .build());
    assertThat(out.getSearchMetadata().getBody()).isEqualTo("Report");
  }

  @Test
  void aggregateJoinsSourcesIncludingRepeatedOnes() {
    PipeDoc out =
        apply(
            MappingPhase.POST,
            mapping(MappingType.MAPPING_TYPE_AGGREGATE, "search_metadata.body")
                .addSourceFieldPaths("search_metadata.title")
                .addSourceFieldPaths("search_metadata.keywords")
                .addSourceFieldPaths("search_metadata.document_type")
                .setSeparator(" | ")
                .build());
    assertThat(out.getSearchMetadata().getBody()).isEqualTo("Report | x | y");
  }

  @Test
  void celWritesTheValueIntoScalarsStructsAndRepeatedFields() {
    PipeDoc out =
        apply(
            MappingPhase.PRE,
            mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.title")
                .setCelExpression(
                    "document.search_metadata.title + ' by ' + document.search_metadata.author")
                .build(),
            mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.custom_fields.team.name")
                .setCelExpression("context_params['team']")
                .build(),
            mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.keywords")
                .setCelExpression("['a', document.search_metadata.title]")
                .build(),
            mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.content_length")
                .setCelExpression("document.search_metadata.content_length * 2")
                .build());
    assertThat(out.getSearchMetadata().getTitle()).isEqualTo("Report by Ann");
    assertThat(
            out.getSearchMetadata()
                .getCustomFields()
                .getFieldsOrThrow("team")
                .getStructValue()
                .getFieldsOrThrow("name")
                .getStringValue())
        .isEqualTo("search");
    // Mappings run in order: the keyword list sees the title the first mapping wrote.
    assertThat(out.getSearchMetadata().getKeywordsList()).containsExactly("a", "Report by Ann");
    assertThat(out.getSearchMetadata().getContentLength()).isEqualTo(84);
  }

  @Test
  void aMappingWhoseFilterFailsIsSkipped() {
    PipeDoc out =
        apply(
            MappingPhase.PRE,
            mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.title")
                .setCelExpression("'changed'")
                .setFilterCondition("document.search_metadata.content_length > 1000")
                .build());
    assertThat(out).isEqualTo(DOC);
  }

  @Test
  void aTypeMismatchNamesTheMappingNodeAndField() {
    assertThatThrownBy(
            () ->
                apply(
                    MappingPhase.POST,
                    mapping(MappingType.MAPPING_TYPE_CEL, "search_metadata.content_length")
                        .setMappingId("len")
                        .setCelExpression("'long'")
                        .build()))
        .isInstanceOf(FieldMappings.MappingFailure.class)
        .hasMessage(
            "mapping 'len' (post_mappings[0]) of node 'parse' failed: cannot write String 'long' "
                + "into long field 'search_metadata.content_length'");
  }
}
