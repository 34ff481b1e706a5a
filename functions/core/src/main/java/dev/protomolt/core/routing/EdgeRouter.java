package dev.protomolt.core.routing;

import dev.protomolt.core.cel.CelEvaluationFailure;
import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.CompiledExpression;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Routes a document out of a node: the node's edges in priority order, each taken when its
 * condition holds (an empty condition always holds) and loop protection allows it; an exclusive
 * edge that is taken stops the search. Uses only programs compiled when the version was loaded.
 */
public final class EdgeRouter {

  private EdgeRouter() {}

  public static RoutingDecision route(GraphTopology topology, String nodeId, CelInput input) {
    Map<String, Object> activation = input.activation();
    long hopsMade = hopsMade(input.stream().getMetadata());
    int graphDefault = topology.graph().getSettings().getDefaultMaxHops();
    List<Destination> destinations = new ArrayList<>();
    List<String> blocked = new ArrayList<>();
    for (GraphTopology.Route route : topology.routesFrom(nodeId)) {
      GraphEdge edge = route.edge();
      int maxHops = edge.getMaxHops() > 0 ? edge.getMaxHops() : graphDefault;
      if (maxHops > 0 && hopsMade >= maxHops) {
        blocked.add(edge.getEdgeId());
        continue;
      }
      CompiledExpression condition = route.condition();
      if (condition != null) {
        try {
          if (!condition.test(activation)) {
            continue;
          }
        } catch (CelEvaluationFailure e) {
          return new RoutingDecision.Failed(edge.getEdgeId(), e.getMessage());
        }
      }
      destinations.add(
          new Destination(edge, edge.getToNodeId(), EdgeBehavior.of(edge, input.document())));
      if (edge.getExclusive()) {
        break;
      }
    }
    return destinations.isEmpty()
        ? new RoutingDecision.Terminal(blocked)
        : new RoutingDecision.Routed(destinations);
  }

  /**
   * Hops already made, from the stream's hop history. The counter and the history are both read
   * because a stream rebuilt from a replay may carry one without the other.
   */
  static long hopsMade(StreamMetadata metadata) {
    return Math.max(
        metadata.getHopCount(),
        Math.max(metadata.getHistoryCount(), metadata.getProcessingPathCount()));
  }
}
