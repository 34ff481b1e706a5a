package dev.protomolt.core.identity;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The deterministic id of a stored state: a name-based (version 3) UUID over the document's full
 * coordinates. The same coordinates always give the same id, in any JVM, so a retried ingest
 * converges on the same row and the same object prefix instead of duplicating state; a different
 * graph gives a different id, so two graphs with a same-named node never collide.
 *
 * <p>The coordinates are joined with NUL ({@code U+0000}), and a coordinate containing NUL is
 * refused. NUL cannot be stored in a Postgres text column, so no real id can contain it, and
 * refusing it makes the join injective: ("a\0b", "c") and ("a", "b\0c") can never meet.
 */
public final class NodeIds {
  /** Joins the coordinates; see the class comment for why it is NUL. */
  static final char SEPARATOR = '\u0000';

  private NodeIds() {}

  /** The node id of the given coordinates. */
  public static UUID nodeId(NodeCoordinates coordinates) {
    String composite =
        coordinates.docId()
            + SEPARATOR
            + coordinates.graphAddressId()
            + SEPARATOR
            + coordinates.accountId()
            + SEPARATOR
            + coordinates.graphId();
    return UUID.nameUUIDFromBytes(composite.getBytes(StandardCharsets.UTF_8));
  }

  /** The node id of the given coordinates, validated as {@link NodeCoordinates} validates them. */
  public static UUID nodeId(String docId, String graphAddressId, String accountId, String graphId) {
    return nodeId(new NodeCoordinates(docId, graphAddressId, accountId, graphId));
  }

  static void requireCoordinate(String value, String field) {
    GraphIds.requireNotBlank(value, field);
    if (value.indexOf(SEPARATOR) >= 0) {
      throw new InvalidIdentityException(field, "must not contain the NUL character (U+0000)");
    }
  }
}
