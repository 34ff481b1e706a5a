package dev.protomolt.core.routing;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.data.v1.PipeDoc;

/** What an edge promises about the document's durability on the way to its destination. */
public enum EdgeBehavior {
  /** Staged in the store with keep=true: durable and replayable. The safe default. */
  PERSIST,
  /** Staged like PERSIST with keep=false: reclaimed once the destination hop settles. */
  CACHE,
  /** Inline in the execution state: fastest, never written down, not replayable. */
  MEMORY;

  /** The edge's declared behaviour; an unspecified transport is PERSIST. */
  public static EdgeBehavior of(GraphEdge edge) {
    return switch (edge.getTransportType()) {
      case TRANSPORT_TYPE_MEMORY -> MEMORY;
      case TRANSPORT_TYPE_CACHE -> CACHE;
      case TRANSPORT_TYPE_PERSIST, TRANSPORT_TYPE_UNSPECIFIED, UNRECOGNIZED -> PERSIST;
    };
  }

  /**
   * The behaviour for this document: a right-to-be-forgotten document declares a ceiling that
   * beats the edge's floor, so every edge it takes is MEMORY.
   */
  public static EdgeBehavior of(GraphEdge edge, PipeDoc document) {
    if (document.getOwnership().getRightToBeForgotten()) {
      return MEMORY;
    }
    return of(edge);
  }
}
