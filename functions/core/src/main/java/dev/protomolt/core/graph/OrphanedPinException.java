package dev.protomolt.core.graph;

/**
 * A document is pinned to a graph version that no longer exists, or to a node that version does
 * not have. The message says what is missing and how to re-pin, because the person reading it is
 * looking at a stuck backlog, not at this code.
 */
public final class OrphanedPinException extends RuntimeException {

  private final String graphId;
  private final long version;
  private final String nodeId;

  private OrphanedPinException(String message, String graphId, long version, String nodeId) {
    super(message);
    this.graphId = graphId;
    this.version = version;
    this.nodeId = nodeId;
  }

  static OrphanedPinException versionMissing(String graphId, long version, String nodeId) {
    return new OrphanedPinException(
        "document pinned to node '"
            + nodeId
            + "' of graph '"
            + graphId
            + "' version "
            + version
            + ", but that version does not exist (deleted?). Re-pin by "
            + "replaying the document on an existing version of '"
            + graphId
            + "' (for example the "
            + "active one) or by re-admitting it through intake; nothing will run it on version "
            + version
            + ".",
        graphId,
        version,
        nodeId);
  }

  static OrphanedPinException nodeMissing(String graphId, long version, String nodeId) {
    return new OrphanedPinException(
        "document pinned to node '"
            + nodeId
            + "' of graph '"
            + graphId
            + "' version "
            + version
            + ", but that version has no node '"
            + nodeId
            + "'. Re-pin by "
            + "replaying the document at a node that exists in version "
            + version
            + " or on a version "
            + "of '"
            + graphId
            + "' that has node '"
            + nodeId
            + "'.",
        graphId,
        version,
        nodeId);
  }

  public String graphId() {
    return graphId;
  }

  public long version() {
    return version;
  }

  public String nodeId() {
    return nodeId;
  }
}
