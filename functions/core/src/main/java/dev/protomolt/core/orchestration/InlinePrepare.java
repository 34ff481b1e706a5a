package dev.protomolt.core.orchestration;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;

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

  private InlinePrepare() {}

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
