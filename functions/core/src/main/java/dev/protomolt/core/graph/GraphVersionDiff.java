package dev.protomolt.core.graph;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What changed between two versions of one graph: nodes matched by {@code node_id} and edges by
 * {@code edge_id}, each added, removed or changed, and for a changed one every field that differs
 * with its value before and after (a CEL condition, a module, a config, a transport...). Fields
 * are compared through the message descriptors, so a field added to the contract later is
 * compared without touching this class.
 *
 * <p>Left out on purpose: a node's {@code design_config} (where it is drawn: moving a node is not
 * a change to the pipeline), and the version's own bookkeeping ({@code version}, {@code
 * created_at}, {@code created_by}), which differ between any two versions.
 */
public record GraphVersionDiff(
    String graphId,
    long fromVersion,
    long toVersion,
    List<FieldChange> graph,
    List<ElementChange> nodes,
    List<ElementChange> edges) {

  /** How one node or edge differs. */
  public enum Kind {
    ADDED,
    REMOVED,
    CHANGED
  }

  /**
   * One field that differs; values in the protobuf JSON mapping, empty when the field is unset.
   */
  public record FieldChange(String field, String before, String after) {}

  /**
   * One node or edge that was added, removed or changed; {@code summary} says what it is (a node's
   * module or type, an edge's ends), and {@code fields} lists a changed element's differences.
   */
  public record ElementChange(String id, Kind kind, String summary, List<FieldChange> fields) {}

  private static final Set<String> GRAPH_BOOKKEEPING =
      Set.of("nodes", "edges", "version", "created_at", "created_by");
  private static final Set<String> NODE_DRAWING = Set.of("node_id", "design_config");
  private static final Set<String> EDGE_ID = Set.of("edge_id");

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  /** Whether the two versions run the same pipeline (only drawing and bookkeeping differ). */
  public boolean same() {
    return graph.isEmpty() && nodes.isEmpty() && edges.isEmpty();
  }

  /** The changes that turn {@code from} into {@code to}, two versions of the same graph. */
  public static GraphVersionDiff between(PipelineGraph from, PipelineGraph to) {
    if (!from.getGraphId().equals(to.getGraphId())) {
      throw new IllegalArgumentException(
          "a diff compares two versions of one graph, got '"
              + from.getGraphId()
              + "' and '"
              + to.getGraphId()
              + "'");
    }
    return new GraphVersionDiff(
        from.getGraphId(),
        from.getVersion(),
        to.getVersion(),
        fields(from, to, GRAPH_BOOKKEEPING),
        elements(
            from.getNodesList(),
            to.getNodesList(),
            GraphNode::getNodeId,
            GraphVersionDiff::nodeSummary,
            NODE_DRAWING),
        elements(
            from.getEdgesList(),
            to.getEdgesList(),
            GraphEdge::getEdgeId,
            e -> e.getFromNodeId() + " -> " + e.getToNodeId(),
            EDGE_ID));
  }

  private static String nodeSummary(GraphNode n) {
    return n.getModuleId().isEmpty()
        ? n.getNodeType().name().replace("NODE_TYPE_", "").toLowerCase(java.util.Locale.ROOT)
        : n.getModuleId();
  }

  /** Removed elements first in {@code from}'s order, then changed and added in {@code to}'s. */
  private static <T extends Message> List<ElementChange> elements(
      List<T> from,
      List<T> to,
      Function<T, String> id,
      Function<T, String> summary,
      Set<String> ignored) {
    Map<String, T> before = byId(from, id);
    Map<String, T> after = byId(to, id);
    List<ElementChange> out = new ArrayList<>();
    before.forEach(
        (key, was) -> {
          if (!after.containsKey(key)) {
            out.add(new ElementChange(key, Kind.REMOVED, summary.apply(was), List.of()));
          }
        });
    after.forEach(
        (key, now) -> {
          T was = before.get(key);
          if (was == null) {
            out.add(new ElementChange(key, Kind.ADDED, summary.apply(now), List.of()));
          } else {
            List<FieldChange> changed = fields(was, now, ignored);
            if (!changed.isEmpty()) {
              out.add(new ElementChange(key, Kind.CHANGED, summary.apply(now), changed));
            }
          }
        });
    return List.copyOf(out);
  }

  private static <T> Map<String, T> byId(List<T> elements, Function<T, String> id) {
    Map<String, T> out = new LinkedHashMap<>();
    for (T e : elements) {
      out.put(id.apply(e), e);
    }
    return out;
  }

  /** Every top-level field of the message type whose values differ, in field-number order. */
  private static List<FieldChange> fields(Message was, Message now, Set<String> ignored) {
    List<FieldChange> out = new ArrayList<>();
    for (FieldDescriptor f : was.getDescriptorForType().getFields()) {
      if (ignored.contains(f.getName())) {
        continue;
      }
      Object a = was.getField(f);
      Object b = now.getField(f);
      if (!a.equals(b)) {
        out.add(new FieldChange(f.getName(), text(was, f), text(now, f)));
      }
    }
    return List.copyOf(out);
  }

  /**
   * One field's value, empty when it is unset: a single scalar as plain text (a CEL condition
   * reads as written, an enum by its name), anything else (messages, lists, maps) as its protobuf
   * JSON.
   */
  private static String text(Message owner, FieldDescriptor f) {
    Object value = owner.getField(f);
    if (f.isRepeated() ? owner.getRepeatedFieldCount(f) == 0 : !owner.hasField(f)) {
      return "";
    }
    if (!f.isRepeated() && f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
      return value instanceof com.google.protobuf.Descriptors.EnumValueDescriptor e
          ? e.getName()
          : value.toString();
    }
    // Print the one field through a message holding only it, so maps and nested messages come
    // out exactly as the API's protobuf JSON does.
    MessageOrBuilder only = owner.toBuilder().clear().setField(f, value).build();
    try {
      String json = JSON.print(only);
      String key = "\"" + f.getJsonName() + "\":";
      int at = json.indexOf(key);
      return unescapeHtmlSafe(json.substring(at + key.length(), json.length() - 1));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a graph field did not print as JSON: " + f.getName(), e);
    }
  }

  /**
   * The JSON printer writes {@code = ' < > &} as unicode escapes (HTML-safe output); a diff is read
   * by people, and CEL is full of {@code ==} and quotes, so they are put back. The escapes only
   * ever occur inside JSON strings, where the plain characters mean the same.
   */
  private static String unescapeHtmlSafe(String json) {
    return json.replace("\\u003d", "=")
        .replace("\\u0027", "'")
        .replace("\\u003c", "<")
        .replace("\\u003e", ">")
        .replace("\\u0026", "&");
  }
}
