package dev.protomolt.cli;

import dev.protomolt.core.graph.validation.TenancyDirectory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Which account owns each datasource, as the local platform provisioned them (decision 0951), kept
 * in the {@code datasource_bindings} table so a restart of {@code up} on the same data folder keeps
 * them (decision 0961). Graph validation refuses an intake node whose datasource belongs to another
 * account.
 */
final class ProvisionedTenancy implements TenancyDirectory {

  private final DataSource db;

  ProvisionedTenancy(DataSource db) {
    this.db = db;
  }

  /** Binds {@code datasourceId} to {@code accountId}; a datasource never changes owner. */
  void bind(String datasourceId, String accountId) {
    if (datasourceId == null || datasourceId.isBlank()) {
      throw new IllegalArgumentException("datasourceId: must be non-blank, got '" + datasourceId + "'");
    }
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement("INSERT INTO datasource_bindings (datasource_id,"
            + " account_id) VALUES (?, ?) ON CONFLICT (datasource_id) DO NOTHING")) {
      s.setString(1, datasourceId);
      s.setString(2, accountId);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot record datasource '" + datasourceId + "': "
          + e.getMessage(), e);
    }
    String owner = datasourceAccount(datasourceId).orElseThrow();
    if (!owner.equals(accountId)) {
      throw new IllegalArgumentException("datasourceId: '" + datasourceId
          + "' already belongs to account '" + owner + "', not '" + accountId + "'");
    }
  }

  @Override
  public Optional<String> datasourceAccount(String datasourceId) {
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement(
            "SELECT account_id FROM datasource_bindings WHERE datasource_id = ?")) {
      s.setString(1, datasourceId);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read datasource_bindings: " + e.getMessage(), e);
    }
  }

  /** Every account that owns a datasource, for restoring their intake notifications on start. */
  List<String> accounts() {
    List<String> found = new ArrayList<>();
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement(
            "SELECT DISTINCT account_id FROM datasource_bindings ORDER BY account_id");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        found.add(r.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read datasource_bindings: " + e.getMessage(), e);
    }
    return found;
  }
}
