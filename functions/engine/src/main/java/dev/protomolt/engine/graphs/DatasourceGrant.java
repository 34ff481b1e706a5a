package dev.protomolt.engine.graphs;

import java.time.Instant;
import java.util.Optional;

/**
 * One grant of a datasource to another account's graphs, as recorded: who granted it, when and
 * why, and, once revoked, who revoked it and when. Revoked grants stay listed; they are the audit.
 */
public record DatasourceGrant(
    long grantId,
    String datasourceId,
    String granteeAccountId,
    String grantedBy,
    Instant grantedAt,
    String reason,
    Optional<String> revokedBy,
    Optional<Instant> revokedAt) {

  /** Whether the grant still admits the grantee's graphs. */
  public boolean live() {
    return revokedAt.isEmpty();
  }
}
