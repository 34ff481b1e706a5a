package dev.protomolt.core.identity;

/**
 * The full coordinates of one stored state of a document: which document, at which node address of
 * which graph, for which account. Every coordinate is required; a blank one is refused with an error
 * naming it, so a blank identity can never reach the ledger.
 *
 * @param docId          the caller's document id ({@code doc_id})
 * @param graphAddressId the node address within the graph ({@code graph_address_id})
 * @param accountId      the owning account ({@code account_id})
 * @param graphId        the graph, or {@code intake:<accountId>} for intake ({@code graph_id})
 */
public record NodeCoordinates(
    String docId, String graphAddressId, String accountId, String graphId) {
  public NodeCoordinates {
    NodeIds.requireCoordinate(docId, "doc_id");
    NodeIds.requireCoordinate(graphAddressId, "graph_address_id");
    NodeIds.requireCoordinate(accountId, "account_id");
    NodeIds.requireCoordinate(graphId, "graph_id");
    if (GraphIds.isIntake(graphId) && !GraphIds.accountOfIntake(graphId).equals(accountId)) {
      throw new InvalidIdentityException(
          "graph_id",
          "must be the intake graph of account_id \"" + accountId + "\", got \"" + graphId + "\"");
    }
  }

  /**
   * Coordinates of an intake copy: it lives at its datasource's address in the account's
   * synthetic intake graph, so one document arriving from two datasources is two intake copies
   * (the contracts' {@code graph_address_id} and the ledger's CHECK constraint say the same).
   */
  public static NodeCoordinates intake(String docId, String datasourceId, String accountId) {
    return new NodeCoordinates(docId, datasourceId, accountId, GraphIds.intakeGraphId(accountId));
  }

  /** Whether these coordinates name an intake row or a pipeline row. */
  public RowKind rowKind() {
    return GraphIds.rowKindOf(graphId);
  }
}
