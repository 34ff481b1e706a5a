package dev.protomolt.statemachines;

/**
 * How a document's walk through one execution ended; the {@code disposition} field of the
 * execution output (or, for {@link #DEAD_LETTERED}, the error of the failed execution).
 */
public enum Disposition {
  /** A SINK node routed to no further destination. */
  SINK_REACHED,
  /** A non-sink node routed to no destination (no outgoing edge, or none whose condition held). */
  ROUTING_ENDED,
  /** The node's filter dropped the document: terminal, successful, no dead letter. */
  DROPPED,
  /** The module rejected the document: terminal, recorded. */
  REJECTED,
  /** Several destinations: each continues in its own child execution. */
  FANNED_OUT,
  /** The hop failed for good and its DlqMessage was written; the execution fails. */
  DEAD_LETTERED
}
