package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Publishes each event downstream (graph-updates) and then hands it to this process's live
 * subscribers (SubscribeToGraphUpdates), each with its own cluster / graph / type filter.
 */
public final class GraphUpdateFeed implements GraphEventPublisher {

  private final GraphEventPublisher downstream;
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

  public GraphUpdateFeed(GraphEventPublisher downstream) {
    this.downstream = downstream;
  }

  @Override
  public void publish(GraphUpdateEvent event) {
    downstream.publish(event);
    for (Subscriber s : subscribers) {
      if (s.filter().matches(event)) {
        s.sink().accept(event);
      }
    }
  }

  /** Starts delivering matching events; close the returned handle to stop. */
  public AutoCloseable subscribe(Filter filter, Consumer<GraphUpdateEvent> sink) {
    Subscriber subscriber = new Subscriber(filter, sink);
    subscribers.add(subscriber);
    return () -> subscribers.remove(subscriber);
  }

  int subscriberCount() {
    return subscribers.size();
  }

  /** Empty cluster / graph and an empty type set match everything. */
  public record Filter(String clusterId, String graphId, Set<GraphUpdateType> types) {
    public boolean matches(GraphUpdateEvent e) {
      return (clusterId.isEmpty() || clusterId.equals(e.getClusterId()))
          && (graphId.isEmpty() || graphId.equals(e.getGraphId()))
          && (types.isEmpty() || types.contains(e.getType()));
    }
  }

  private record Subscriber(Filter filter, Consumer<GraphUpdateEvent> sink) {}
}
