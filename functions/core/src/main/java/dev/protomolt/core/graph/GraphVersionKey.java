package dev.protomolt.core.graph;

/** A graph version's identity in the runtime cache. */
public record GraphVersionKey(String graphId, long version) {

  public GraphVersionKey {
    if (graphId == null || graphId.isBlank()) {
      throw new IllegalArgumentException("graph_id must not be blank");
    }
    if (version <= 0) {
      throw new IllegalArgumentException(
          "version must be positive, was " + version + " for graph " + graphId);
    }
  }

  @Override
  public String toString() {
    return graphId + "@v" + version;
  }
}
