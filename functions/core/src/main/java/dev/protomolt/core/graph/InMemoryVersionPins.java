package dev.protomolt.core.graph;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Pin counts held in memory: what tests and local runs without executions use. */
public final class InMemoryVersionPins implements VersionPins {

  private final Map<GraphVersionKey, Long> pins = new ConcurrentHashMap<>();

  public void pin(String graphId, long version) {
    pins.merge(new GraphVersionKey(graphId, version), 1L, Long::sum);
  }

  public void release(String graphId, long version) {
    pins.computeIfPresent(new GraphVersionKey(graphId, version), (k, n) -> n <= 1 ? null : n - 1);
  }

  @Override
  public long pinnedDocuments(String graphId, long version) {
    return pins.getOrDefault(new GraphVersionKey(graphId, version), 0L);
  }
}
