package dev.protomolt.core.routing;

import java.util.List;

/** The outcome of routing one document out of one node. */
public sealed interface RoutingDecision {

  /** One or more destinations, in edge evaluation order. */
  record Routed(List<Destination> destinations) implements RoutingDecision {
    public Routed {
      if (destinations.isEmpty()) {
        throw new IllegalArgumentException("Routed needs at least one destination");
      }
      destinations = List.copyOf(destinations);
    }
  }

  /**
   * No edge was taken: the node is a leaf, no condition matched, or loop protection stopped the
   * edges listed in {@code blockedByMaxHops}. A terminal success, recorded with the reason.
   */
  record Terminal(List<String> blockedByMaxHops) implements RoutingDecision {
    public Terminal {
      blockedByMaxHops = List.copyOf(blockedByMaxHops);
    }
  }

  /**
   * An edge condition failed to evaluate. Routing stops rather than guessing: silently treating
   * the error as false could end the document's journey with nobody told.
   */
  record Failed(String edgeId, String reason) implements RoutingDecision {}
}
