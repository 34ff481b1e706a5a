package dev.protomolt.core.cel;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import java.util.ArrayList;
import java.util.List;

/**
 * One place a graph holds a CEL expression. The validator and the loader both enumerate sites
 * through {@link #of(PipelineGraph)}, so they agree on which expressions exist and on their keys.
 *
 * @param key cache key: {@code edge:<edge>}, {@code node:<node>:filter:<i>} or {@code
 *     mapping:<node>:<pre|post>:<i>:<filter|expr>}
 * @param nodeId owning node ("" for edges)
 * @param edgeId owning edge ("" for node-owned expressions)
 * @param field the proto field holding the expression, e.g. {@code edges[2].condition}
 */
public record ExpressionSite(
    String key,
    String expression,
    ExpressionShape shape,
    String nodeId,
    String edgeId,
    String field) {

  public static String edgeKey(String edgeId) {
    return "edge:" + edgeId;
  }

  public static String filterKey(String nodeId, int index) {
    return "node:" + nodeId + ":filter:" + index;
  }

  public static String mappingFilterKey(String nodeId, MappingPhase phase, int index) {
    return "mapping:" + nodeId + ":" + phase.label() + ":" + index + ":filter";
  }

  public static String mappingExpressionKey(String nodeId, MappingPhase phase, int index) {
    return "mapping:" + nodeId + ":" + phase.label() + ":" + index + ":expr";
  }

  /** Every non-blank expression of the graph, in a stable order. */
  public static List<ExpressionSite> of(PipelineGraph graph) {
    List<ExpressionSite> sites = new ArrayList<>();
    for (int e = 0; e < graph.getEdgesCount(); e++) {
      GraphEdge edge = graph.getEdges(e);
      if (!edge.getCondition().isBlank()) {
        sites.add(
            new ExpressionSite(
                edgeKey(edge.getEdgeId()),
                edge.getCondition(),
                ExpressionShape.PREDICATE,
                "",
                edge.getEdgeId(),
                "edges[" + e + "].condition"));
      }
    }
    for (int n = 0; n < graph.getNodesCount(); n++) {
      GraphNode node = graph.getNodes(n);
      String prefix = "nodes[" + n + "]";
      for (int f = 0; f < node.getFilterConditionsCount(); f++) {
        String condition = node.getFilterConditions(f).getCondition();
        if (!condition.isBlank()) {
          sites.add(
              new ExpressionSite(
                  filterKey(node.getNodeId(), f),
                  condition,
                  ExpressionShape.PREDICATE,
                  node.getNodeId(),
                  "",
                  prefix + ".filter_conditions[" + f + "].condition"));
        }
      }
      addMappings(
          sites, node, MappingPhase.PRE, node.getPreMappingsList(), prefix + ".pre_mappings");
      addMappings(
          sites, node, MappingPhase.POST, node.getPostMappingsList(), prefix + ".post_mappings");
    }
    return List.copyOf(sites);
  }

  private static void addMappings(
      List<ExpressionSite> sites,
      GraphNode node,
      MappingPhase phase,
      List<ProcessingMapping> mappings,
      String prefix) {
    for (int m = 0; m < mappings.size(); m++) {
      ProcessingMapping mapping = mappings.get(m);
      if (!mapping.getFilterCondition().isBlank()) {
        sites.add(
            new ExpressionSite(
                mappingFilterKey(node.getNodeId(), phase, m),
                mapping.getFilterCondition(),
                ExpressionShape.PREDICATE,
                node.getNodeId(),
                "",
                prefix + "[" + m + "].filter_condition"));
      }
      if (!mapping.getCelExpression().isBlank()) {
        sites.add(
            new ExpressionSite(
                mappingExpressionKey(node.getNodeId(), phase, m),
                mapping.getCelExpression(),
                ExpressionShape.VALUE,
                node.getNodeId(),
                "",
                prefix + "[" + m + "].cel_expression"));
      }
    }
  }
}
