package dev.protomolt.core.graph.validation;

import java.util.Optional;

/**
 * Who owns what, for DESIGN-mode tenancy checks. Port: the adapter reads the account registry.
 * DRAFT validation never calls it ("no lookups").
 */
public interface TenancyDirectory {

  /** The account owning a datasource, or empty when the datasource is unknown. */
  Optional<String> datasourceAccount(String datasourceId);

  /** A directory that knows nothing: every datasource is unknown. */
  static TenancyDirectory empty() {
    return datasourceId -> Optional.empty();
  }
}
