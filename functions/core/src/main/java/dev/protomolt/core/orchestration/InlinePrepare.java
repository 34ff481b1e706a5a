package dev.protomolt.core.orchestration;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.List;

/**
 * Which nodes the Complete before them may prepare in its own invocation (decision 1832). One
 * predicate for both sides: the graph compiler gives exactly these nodes the prepared branch of the
 * routing choice before them, and Complete prepares exactly these. Were they to disagree, a stream
 * prepared by Complete would be sent through the node's Prepare and its pre-mappings applied twice.
 */
public final class InlinePrepare {

  /** The flag Complete's answer carries: true when the stream and work unit are the next node's. */
  public static final String PREPARED_FIELD = "prepared";

  /**
   * The flag of Complete's payload, set by a machine whose routing choice has the prepared branch.
   * Without it Complete prepares nothing, so a version compiled before decision 1832 keeps its path.
   */
  public static final String PREPARE_NEXT_FIELD = "prepareNext";

  /**
   * The flag of Complete's payload, set by a machine whose Complete goes straight to the next
   * node's Work with no routing choice between them (decision 1834). Complete must then route to
   * exactly that node and prepare it, or fail; it settles no memoized hop ahead.
   */
  public static final String DIRECT_NEXT_FIELD = "directNext";

  /**
   * The object of a direct Complete's payload whose state waits for the next node's task token
   * (decision 1842): that node's Work fields ({@code moduleId}, {@code taskToken}, {@code attempt},
   * {@code heartbeatSeconds}, {@code timeoutSeconds}). Complete then dispatches the next hop itself,
   * one Lambda invocation fewer per hop than a Work state of its own.
   */
  public static final String DISPATCH_NEXT_FIELD = "dispatchNext";

  /**
   * The flag of a direct Complete's payload from a state that re-derives the next node's input
   * after that node's handed-on hop failed (decision 1842): the hop is settled again to learn that
   * input, but its step was recorded by the run that handed on, so it is not recorded twice.
   */
  public static final String REDERIVE_FIELD = "rederive";

  private InlinePrepare() {}

  /**
   * Whether {@code from}'s Complete can go straight to {@code to}'s Work (decision 1834): routing
   * out of it has one possible answer. That holds for a module node whose only edge has no
   * condition and no hop limit, in a graph with no default hop limit, into a node that {@link
   * #allowed} and that has no pre-mappings, so its preparation cannot fail on the document (a
   * mapping that fails must fail on its own node's Prepare, which then exists on the path). An
   * intake node keeps its choice: a replay's intake settles memoized hops ahead (decision 1815).
   */
  public static boolean direct(
      PipelineGraph graph, GraphNode from, List<GraphEdge> outEdges, GraphNode to) {
    if (from.getNodeType() == NodeType.NODE_TYPE_INTAKE || outEdges.size() != 1 || to == null) {
      return false;
    }
    GraphEdge edge = outEdges.getFirst();
    return edge.getToNodeId().equals(to.getNodeId())
        && edge.getCondition().isBlank()
        && edge.getMaxHops() == 0
        && graph.getSettings().getDefaultMaxHops() == 0
        && allowed(to)
        && to.getPreMappingsList().isEmpty();
  }

  /**
   * A module node without a filter: its Prepare always goes straight to Work, so its answer needs
   * no choice, and nothing but the preparation itself (hydrate, pre-mappings) stands between the
   * routing choice before it and its Work.
   */
  public static boolean allowed(GraphNode node) {
    return node.getNodeType() != NodeType.NODE_TYPE_INTAKE
        && node.getFilterConditionsList().isEmpty();
  }
}
