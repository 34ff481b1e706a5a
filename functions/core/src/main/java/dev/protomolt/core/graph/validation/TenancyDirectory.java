package dev.protomolt.core.graph.validation;

import java.util.Optional;

/**
 * Who owns what, and who was granted what, for DESIGN-mode tenancy checks. Port: the adapter reads
 * the account registry and the datasource grants. DRAFT validation never calls it ("no lookups").
 */
public interface TenancyDirectory {

  /** The account owning a datasource, or empty when the datasource is unknown. */
  Optional<String> datasourceAccount(String datasourceId);

  /**
   * Whether the owner of {@code datasourceId} has granted it to {@code accountId}'s graphs and not
   * revoked the grant. A directory that records no grants answers false, so a graph may only bind
   * another account's datasource after an explicit grant.
   */
  default boolean granted(String datasourceId, String accountId) {
    return false;
  }

  /** A directory that knows nothing: every datasource is unknown. */
  static TenancyDirectory empty() {
    return datasourceId -> Optional.empty();
  }
}
