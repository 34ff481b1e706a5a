package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphVersionSource;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.Optional;

/** Lets the runtime cache reload a missed version straight from the graph store. */
public final class StoredVersionSource implements GraphVersionSource {

  private final GraphStore store;

  public StoredVersionSource(GraphStore store) {
    this.store = store;
  }

  @Override
  public Optional<PipelineGraph> load(String graphId, long version) {
    return store.get(graphId, version).map(GraphStore.StoredGraph::graph);
  }

  @Override
  public Optional<PipelineGraph> loadActive(String graphId) {
    return store.get(graphId, 0).map(GraphStore.StoredGraph::graph);
  }
}
