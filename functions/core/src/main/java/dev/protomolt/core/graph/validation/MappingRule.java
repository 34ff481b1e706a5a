package dev.protomolt.core.graph.validation;

import dev.protomolt.core.routing.DocumentFieldPath;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.util.List;

/**
 * Every pre/post mapping has a type, a target that is a real PipeDoc field, and what its type
 * needs: DIRECT exactly one source, AGGREGATE at least one, CEL an expression.
 */
final class MappingRule implements GraphRule {

  @Override
  public String name() {
    return "Mapping";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    for (GraphNode node : graph.getNodesList()) {
      checkAll(node, "pre_mappings", node.getPreMappingsList(), sink);
      checkAll(node, "post_mappings", node.getPostMappingsList(), sink);
    }
  }

  private void checkAll(
      GraphNode node, String list, List<ProcessingMapping> mappings, ViolationSink sink) {
    for (int i = 0; i < mappings.size(); i++) {
      ProcessingMapping m = mappings.get(i);
      String where =
          "node '"
              + node.getNodeId()
              + "' "
              + list
              + "["
              + i
              + "]"
              + (m.getMappingId().isBlank() ? "" : " ('" + m.getMappingId() + "')");
      String field = list + "[" + i + "]";
      switch (m.getMappingType()) {
        case MAPPING_TYPE_UNSPECIFIED, UNRECOGNIZED ->
            sink.at(
                node.getNodeId(),
                "",
                field + ".mapping_type",
                0,
                where + " has no mapping_type: set DIRECT, AGGREGATE or CEL");
        case MAPPING_TYPE_DIRECT -> {
          if (m.getSourceFieldPathsCount() != 1) {
            sink.at(
                node.getNodeId(),
                "",
                field + ".source_field_paths",
                0,
                where
                    + " is DIRECT and needs exactly one source_field_path, has "
                    + m.getSourceFieldPathsCount());
          }
        }
        case MAPPING_TYPE_AGGREGATE -> {
          if (m.getSourceFieldPathsCount() == 0) {
            sink.at(
                node.getNodeId(),
                "",
                field + ".source_field_paths",
                0,
                where + " is AGGREGATE and needs at least one source_field_path");
          }
        }
        case MAPPING_TYPE_CEL -> {
          if (m.getCelExpression().isBlank()) {
            sink.at(
                node.getNodeId(),
                "",
                field + ".cel_expression",
                0,
                where + " is CEL and needs a cel_expression");
          }
        }
      }
      for (int s = 0; s < m.getSourceFieldPathsCount(); s++) {
        checkPath(
            node, sink, where, field + ".source_field_paths[" + s + "]", m.getSourceFieldPaths(s));
      }
      if (m.getTargetFieldPath().isBlank()) {
        sink.at(
            node.getNodeId(),
            "",
            field + ".target_field_path",
            0,
            where + " has no target_field_path");
      } else {
        checkPath(node, sink, where, field + ".target_field_path", m.getTargetFieldPath());
      }
    }
  }

  private static void checkPath(
      GraphNode node, ViolationSink sink, String where, String field, String path) {
    try {
      DocumentFieldPath.parse(path);
    } catch (IllegalArgumentException e) {
      sink.at(node.getNodeId(), "", field, 0, where + ": " + e.getMessage());
    }
  }
}
