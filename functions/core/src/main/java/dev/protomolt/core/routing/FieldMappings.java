package dev.protomolt.core.routing;

import dev.protomolt.core.cel.CelEvaluationFailure;
import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.ExpressionSite;
import dev.protomolt.core.cel.MappingPhase;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Applies a node's pre- or post-mappings in order, each seeing the document as the previous one
 * left it. DIRECT copies one field, AGGREGATE joins several as text, CEL writes an expression's
 * value. A mapping whose filter does not hold is skipped.
 */
public final class FieldMappings {

  private FieldMappings() {}

  public static PipeDoc apply(
      GraphTopology topology,
      GraphNode node,
      MappingPhase phase,
      PipeDoc document,
      PipeStream stream) {
    List<ProcessingMapping> mappings =
        phase == MappingPhase.PRE ? node.getPreMappingsList() : node.getPostMappingsList();
    PipeDoc current = document;
    for (int i = 0; i < mappings.size(); i++) {
      ProcessingMapping mapping = mappings.get(i);
      String name =
          "mapping "
              + (mapping.getMappingId().isBlank() ? "#" + i : "'" + mapping.getMappingId() + "'")
              + " ("
              + phase.label()
              + "_mappings["
              + i
              + "]) of node '"
              + node.getNodeId()
              + "'";
      try {
        current = applyOne(topology, node, phase, i, mapping, current, stream);
      } catch (IllegalArgumentException | CelEvaluationFailure e) {
        throw new MappingFailure(name + " failed: " + e.getMessage(), e);
      }
    }
    return current;
  }

  private static PipeDoc applyOne(
      GraphTopology topology,
      GraphNode node,
      MappingPhase phase,
      int index,
      ProcessingMapping mapping,
      PipeDoc document,
      PipeStream stream) {
    CelInput input = new CelInput(document, stream);
    if (!mapping.getFilterCondition().isBlank()) {
      String key = ExpressionSite.mappingFilterKey(node.getNodeId(), phase, index);
      boolean applies =
          topology
              .expressions()
              .find(key)
              .orElseThrow(() -> new IllegalStateException(key + " was not compiled at load"))
              .test(input.activation());
      if (!applies) {
        return document;
      }
    }
    DocumentFieldPath target = DocumentFieldPath.parse(mapping.getTargetFieldPath());
    return switch (mapping.getMappingType()) {
      case MAPPING_TYPE_DIRECT -> {
        if (mapping.getSourceFieldPathsCount() != 1) {
          throw new IllegalArgumentException("DIRECT needs exactly one source_field_path");
        }
        yield target.write(
            document, DocumentFieldPath.parse(mapping.getSourceFieldPaths(0)).read(document));
      }
      case MAPPING_TYPE_AGGREGATE -> {
        String separator = mapping.getSeparator().isEmpty() ? " " : mapping.getSeparator();
        List<String> parts = new ArrayList<>();
        for (String source : mapping.getSourceFieldPathsList()) {
          collectText(DocumentFieldPath.parse(source).read(document), parts);
        }
        yield target.write(document, String.join(separator, parts));
      }
      case MAPPING_TYPE_CEL -> {
        String key = ExpressionSite.mappingExpressionKey(node.getNodeId(), phase, index);
        Object value =
            topology
                .expressions()
                .find(key)
                .orElseThrow(() -> new IllegalStateException(key + " was not compiled at load"))
                .evaluate(input.activation());
        yield target.write(document, DocumentFieldPath.plain(value));
      }
      case MAPPING_TYPE_UNSPECIFIED, UNRECOGNIZED ->
          throw new IllegalArgumentException("mapping_type is not set");
    };
  }

  private static void collectText(Object value, List<String> out) {
    if (value == null) {
      return;
    }
    if (value instanceof Collection<?> items) {
      items.forEach(item -> collectText(item, out));
      return;
    }
    String text = String.valueOf(value);
    if (!text.isEmpty()) {
      out.add(text);
    }
  }

  /** A mapping could not be applied; the message names the mapping, node and field. */
  public static final class MappingFailure extends RuntimeException {
    MappingFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
