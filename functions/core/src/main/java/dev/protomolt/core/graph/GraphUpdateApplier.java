package dev.protomolt.core.graph;

import dev.protomolt.proto.events.v1.GraphUpdateEvent;

/**
 * Applies one graph-updates event to this process's {@link GraphCache}. Events of one graph
 * arrive in order (they are keyed by graph id); a redelivered or stale ACTIVATED is refused by the
 * epoch fence and reported, not applied.
 */
public final class GraphUpdateApplier {

  /** What applying an event did. */
  public enum Outcome {
    APPLIED,
    /** An activation read before a deactivation this process has already seen. */
    STALE_IGNORED,
    /** An event type this process has nothing to do for. */
    IGNORED
  }

  private final GraphCache cache;

  public GraphUpdateApplier(GraphCache cache) {
    this.cache = cache;
  }

  public Outcome apply(GraphUpdateEvent event) {
    return switch (event.getType()) {
      case GRAPH_UPDATE_TYPE_CREATED -> {
        // Warm the version so its first pinned document skips the reload; compile cost paid now.
        cache.put(event.getGraph());
        yield Outcome.APPLIED;
      }
      case GRAPH_UPDATE_TYPE_ACTIVATED -> {
        try {
          cache.activate(event.getGraph(), event.getDeactivationEpoch());
          yield Outcome.APPLIED;
        } catch (StaleActivationException e) {
          yield Outcome.STALE_IGNORED;
        }
      }
      case GRAPH_UPDATE_TYPE_DEACTIVATED -> {
        cache.observeDeactivation(event.getGraphId(), event.getDeactivationEpoch());
        yield Outcome.APPLIED;
      }
      case GRAPH_UPDATE_TYPE_DELETED -> {
        cache.forget(event.getGraphId(), event.getVersion());
        yield Outcome.APPLIED;
      }
      case GRAPH_UPDATE_TYPE_UNSPECIFIED, UNRECOGNIZED -> Outcome.IGNORED;
    };
  }
}
