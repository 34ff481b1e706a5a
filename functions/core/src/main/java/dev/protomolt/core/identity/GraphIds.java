package dev.protomolt.core.identity;

/**
 * Graph ids and the synthetic intake graph. Intake is modelled as a graph of its own,
 * {@code intake:<accountId>}, so intake rows get the same graph-qualified identity as pipeline rows,
 * and no pipeline graph may ever take an id with that prefix.
 */
public final class GraphIds {
  /** Prefix that marks the synthetic intake graph; reserved, no pipeline graph may use it. */
  public static final String INTAKE_PREFIX = "intake:";

  private GraphIds() {}

  /**
   * The intake graph id of an account. The account id must not be blank and must not contain
   * {@code ':'}: drive names ({@code <accountId>:intake}) and this id both use the colon as the
   * separator, and an account id containing one would make them ambiguous.
   */
  public static String intakeGraphId(String accountId) {
    requireAccountId(accountId, "account_id");
    return INTAKE_PREFIX + accountId;
  }

  /** True when the graph id names an account's synthetic intake graph. */
  public static boolean isIntake(String graphId) {
    return graphId != null && graphId.startsWith(INTAKE_PREFIX);
  }

  /** The row kind a graph id implies, as the ledger's CHECK constraint reads it. */
  public static RowKind rowKindOf(String graphId) {
    requireNotBlank(graphId, "graph_id");
    if (isIntake(graphId)) {
      requireAccountId(graphId.substring(INTAKE_PREFIX.length()), "graph_id");
      return RowKind.INTAKE;
    }
    return RowKind.PIPELINE;
  }

  /** The account whose intake graph this is; fails when it is not an intake graph id. */
  public static String accountOfIntake(String graphId) {
    if (!isIntake(graphId)) {
      throw new InvalidIdentityException(
          "graph_id",
          "must start with \""
              + INTAKE_PREFIX
              + "\" to name an intake graph, got \""
              + graphId
              + "\"");
    }
    String accountId = graphId.substring(INTAKE_PREFIX.length());
    requireAccountId(accountId, "graph_id");
    return accountId;
  }

  /**
   * Checks that a graph id may name a pipeline graph: not blank and not in the reserved intake
   * namespace. Returns it unchanged for chaining.
   */
  public static String requirePipelineGraphId(String graphId) {
    requireNotBlank(graphId, "graph_id");
    if (isIntake(graphId)) {
      throw new InvalidIdentityException(
          "graph_id",
          "must not start with the reserved prefix \""
              + INTAKE_PREFIX
              + "\" for a pipeline graph, got \""
              + graphId
              + "\"");
    }
    return graphId;
  }

  static void requireNotBlank(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new InvalidIdentityException(field, "must not be blank");
    }
  }

  private static void requireAccountId(String accountId, String field) {
    if (accountId == null || accountId.isBlank()) {
      throw new InvalidIdentityException(field, "must name a non-blank account id");
    }
    if (accountId.indexOf(':') >= 0) {
      throw new InvalidIdentityException(
          field,
          "must not contain ':' in the account id (it separates the account from the drive or graph"
              + " kind), got \""
              + accountId
              + "\"");
    }
  }
}
