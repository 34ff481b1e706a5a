package dev.protomolt.core.graph;

import dev.protomolt.proto.events.v1.GraphUpdateEvent;

/** Publishes graph lifecycle events (topic graph-updates). Port: Kafka adapter in functions/engine. */
public interface GraphEventPublisher {

  /** Returns once the event is durably accepted; throws otherwise. */
  void publish(GraphUpdateEvent event);
}
