package dev.protomolt.gateway;

/**
 * The dead letters a graph node has on its topics, as the backlog door reports them (decision
 * 1659). Counted on the topics rather than by this task: a hop dead-letters in the compiled
 * machine after its last retry, which no gateway task sees, and every path to a letter ends there.
 */
@FunctionalInterface
public interface NodeDeadLetters {

  /** The letters kept on the topics of {@code nodeId} of {@code graphId}, in every version. */
  long count(String graphId, String nodeId);
}
