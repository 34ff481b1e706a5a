package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import java.util.ArrayList;
import java.util.List;

/** Keeps what was published; can be told to fail like a broker that is down. */
final class RecordingPublisher implements GraphEventPublisher {

  final List<GraphUpdateEvent> events = new ArrayList<>();
  boolean down;

  @Override
  public synchronized void publish(GraphUpdateEvent event) {
    if (down) {
      throw new IllegalStateException("broker unreachable");
    }
    events.add(event);
  }
}
