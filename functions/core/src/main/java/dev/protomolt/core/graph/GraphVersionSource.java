package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.Optional;

/**
 * Where the runtime cache reloads a version it does not hold (the graph store). Port: the Postgres
 * adapter lives in functions/engine.
 */
public interface GraphVersionSource {

  /** Exactly that version, or empty when it does not exist (deleted or never created). */
  Optional<PipelineGraph> load(String graphId, long version);

  /** The active version of the graph, or empty when none is active. */
  Optional<PipelineGraph> loadActive(String graphId);
}
