package dev.protomolt.core.routing;

/**
 * The one bound on MEMORY exposure in this design: every MEMORY copy a hop hands on rides inline
 * in the execution state, and all inline copies of one hop share a single budget of stream JSON.
 * A copy that does not fit in what is left ducks to CACHE (never to PERSIST); a right-to-be-forgotten
 * copy that does not fit is rejected instead of written down. There is no per-graph occupancy cap
 * and no strike count: the state is durable, and the duck happens on the first attempt over the
 * budget, so a redelivery meets the same answer (decision 1622).
 */
public final class InlineBudget {

  /**
   * Bytes of stream JSON one hop may hand on inline, below Step Functions' 256 KB state limit with
   * room for the envelope (node, work unit id, destinations) around the copies.
   */
  public static final int DEFAULT_BYTES = 200 * 1024;

  private InlineBudget() {}
}
