package dev.protomolt.core.memo;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.data.v1.PipeStream;

/**
 * Which hops record a memo and which may reuse one (decision 1812). Pure: the hop services ask it
 * before touching the memo index.
 */
public final class MemoPolicy {

  /**
   * Context parameter a replay stamps on every execution it starts (its replay id): memoization's
   * default applies to these executions only.
   */
  public static final String REPLAY_PARAM = "protomolt.replay";

  /**
   * Context parameter carrying, from Dispatch to Complete, the checksum of the stored state the
   * hop read, keyed by node: Complete records the memo under it once the module's output is in.
   */
  public static final String INPUT_PARAM_PREFIX = "protomolt.memoInput.";

  /** Context parameter marking a hop whose output was reused rather than computed, by node. */
  public static final String MEMOIZED_PARAM_PREFIX = "protomolt.memoized.";

  /** The address suffix of a node's memoized output, beside the node's own address. */
  public static final String MEMO_ADDRESS_SUFFIX = ".memo";

  private MemoPolicy() {}

  /**
   * The node's setting, with the default resolved: processors memoize during replays, sinks never
   * (a sink's work is its index write, which a reused output would skip). The two causes that once
   * kept the default off are gone: a memo hit restores the BLOBS (decision 1814), and the local
   * runtime gives each concurrent invocation its own container and ledger pool (decision 1831).
   */
  public static Memoization effective(GraphNode node) {
    if (node.getMemoization() != Memoization.MEMOIZATION_UNSPECIFIED) {
      return node.getMemoization();
    }
    return node.getNodeType() == NodeType.NODE_TYPE_PROCESSOR
        ? Memoization.MEMOIZATION_REPLAYS
        : Memoization.MEMOIZATION_OFF;
  }

  /**
   * Whether a hop of {@code node} on {@code stream} takes part at all: the node memoizes, and the
   * input is a stored PERSIST copy (keep=true) of a document that is not to be forgotten. An
   * inline body (a MEMORY edge, and every right-to-be-forgotten upload, decision 1748) never does:
   * it has no stored state to compare and its output must not be written down.
   */
  public static boolean eligible(GraphNode node, PipeStream stream) {
    Memoization mode = effective(node);
    if (mode != Memoization.MEMOIZATION_REPLAYS && mode != Memoization.MEMOIZATION_ALWAYS) {
      return false;
    }
    if (stream.hasDocument()) {
      return false;
    }
    return stream.hasDocumentRef() && stream.getDocumentRef().getKeep();
  }

  /** Whether an eligible hop may reuse a memo now (it always records one). */
  public static boolean reuses(GraphNode node, PipeStream stream) {
    if (!eligible(node, stream)) {
      return false;
    }
    return effective(node) == Memoization.MEMOIZATION_ALWAYS
        || !stream.getMetadata().getContextParamsOrDefault(REPLAY_PARAM, "").isEmpty();
  }
}
