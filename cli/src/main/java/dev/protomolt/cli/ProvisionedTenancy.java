package dev.protomolt.cli;

import dev.protomolt.core.graph.validation.TenancyDirectory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which account owns each datasource, as the local platform provisioned them (decision 0951).
 * Graph validation refuses an intake node whose datasource belongs to another account.
 */
final class ProvisionedTenancy implements TenancyDirectory {

  private final Map<String, String> accountByDatasource = new ConcurrentHashMap<>();

  /** Binds {@code datasourceId} to {@code accountId}; a datasource never changes owner. */
  void bind(String datasourceId, String accountId) {
    String owner = accountByDatasource.putIfAbsent(datasourceId, accountId);
    if (owner != null && !owner.equals(accountId)) {
      throw new IllegalArgumentException("datasourceId: '" + datasourceId
          + "' already belongs to account '" + owner + "', not '" + accountId + "'");
    }
  }

  @Override
  public Optional<String> datasourceAccount(String datasourceId) {
    return Optional.ofNullable(accountByDatasource.get(datasourceId));
  }
}
