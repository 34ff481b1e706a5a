package dev.protomolt.core.graph;

/**
 * How many in-flight documents are pinned to a graph version. Port: a version with pins cannot be
 * deleted, because those documents must drain on it.
 */
public interface VersionPins {

  long pinnedDocuments(String graphId, long version);
}
