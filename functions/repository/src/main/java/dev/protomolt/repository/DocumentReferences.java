package dev.protomolt.repository;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.data.v1.DocumentReference;
import java.util.UUID;

/** Turns a {@link DocumentReference} into the node id it addresses, refusing blank or crossed ones. */
public final class DocumentReferences {

  private DocumentReferences() {}

  /**
   * The coordinates a reference names.
   *
   * @param field how the reference is spelled in the request, e.g. {@code document_ref}
   */
  public static NodeCoordinates coordinates(DocumentReference ref, String field) {
    String prefix = field + ".";
    SaveTarget.requireNotBlank(ref.getAccountId(), prefix + "account_id");
    SaveTarget.requireNotBlank(ref.getDocId(), prefix + "doc_id");
    SaveTarget.requireNotBlank(ref.getGraphId(), prefix + "graph_id");
    SaveTarget.requireNotBlank(ref.getGraphAddressId(), prefix + "graph_address_id");
    NodeCoordinates coordinates =
        SaveTarget.identity(
            () ->
                new NodeCoordinates(
                    ref.getDocId(), ref.getGraphAddressId(), ref.getAccountId(), ref.getGraphId()),
            prefix);
    if (!ref.getNodeId().isEmpty()) {
      UUID computed = NodeIds.nodeId(coordinates);
      if (!ref.getNodeId().equals(computed.toString())) {
        throw new PipeDocStoreException.InvalidRequest(
            prefix + "node_id",
            "'"
                + ref.getNodeId()
                + "' does not match the node id "
                + computed
                + " of the reference's coordinates");
      }
    }
    return coordinates;
  }

  /** The reference to a stored state. */
  public static DocumentReference of(NodeCoordinates c, UUID nodeId, boolean keep) {
    return DocumentReference.newBuilder()
        .setDocId(c.docId())
        .setGraphAddressId(c.graphAddressId())
        .setAccountId(c.accountId())
        .setGraphId(c.graphId())
        .setKeep(keep)
        .setNodeId(nodeId.toString())
        .build();
  }
}
