package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.validation.TenancyDirectory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Which account owns each datasource, and which other accounts it was granted to, from the {@code datasource_bindings} table the local platform
 * already keeps (migration V960, decision 0961), so graph admin in AWS checks ownership against the
 * same rows (decision 0672). A datasource never changes owner: the primary key is the datasource
 * alone, and {@link #bind} refuses a second owner instead of overwriting the first.
 */
public final class PostgresDatasourceBindings implements TenancyDirectory {

  private final DataSource db;

  public PostgresDatasourceBindings(DataSource db) {
    this.db = Objects.requireNonNull(db, "db");
  }

  /**
   * Records that {@code accountId} owns {@code datasourceId}; binding the same pair again is a
   * no-op, so a redelivered account event changes nothing.
   *
   * @throws IllegalArgumentException naming the field when either id is blank, or when the
   *     datasource already belongs to another account
   */
  public void bind(String datasourceId, String accountId) {
    requireNonBlank("datasourceId", datasourceId);
    requireNonBlank("accountId", accountId);
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO datasource_bindings (datasource_id,"
                    + " account_id) VALUES (?, ?) ON CONFLICT (datasource_id) DO NOTHING")) {
      s.setString(1, datasourceId);
      s.setString(2, accountId);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot record datasource '" + datasourceId + "': " + e.getMessage(), e);
    }
    // Read back rather than trust the insert: a concurrent binder may have won the row.
    String owner =
        datasourceAccount(datasourceId)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "datasource '" + datasourceId + "' was bound but cannot be read back"));
    if (!owner.equals(accountId)) {
      throw new IllegalArgumentException(
          "datasourceId: '"
              + datasourceId
              + "' already belongs to"
              + " account '"
              + owner
              + "', not '"
              + accountId
              + "'; a datasource never changes owner");
    }
  }

  /**
   * Declares every upload of {@code datasourceId}, which {@code accountId} must own, right to be
   * forgotten (decision 1512). Declaring it again is a no-op, and nothing makes it ordinary again.
   *
   * @throws IllegalArgumentException naming the field when the datasource is not the account's
   */
  public void markForgettable(String datasourceId, String accountId) {
    requireNonBlank("datasourceId", datasourceId);
    requireNonBlank("accountId", accountId);
    int updated;
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE datasource_bindings SET right_to_be_forgotten = true"
                    + " WHERE datasource_id = ? AND account_id = ?")) {
      s.setString(1, datasourceId);
      s.setString(2, accountId);
      updated = s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot mark datasource '" + datasourceId + "' forgettable: " + e.getMessage(), e);
    }
    if (updated == 0) {
      throw new IllegalArgumentException(
          "forgettableDatasourceIds: '"
              + datasourceId
              + "' is not a datasource of account '"
              + accountId
              + "'; bind it to the account first");
    }
  }

  /** Whether every upload of {@code datasourceId} is right-to-be-forgotten (decision 1512). */
  public boolean forgettable(String datasourceId) {
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT right_to_be_forgotten FROM datasource_bindings WHERE datasource_id = ?")) {
      s.setString(1, datasourceId);
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read datasource_bindings for '" + datasourceId + "': " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<String> datasourceAccount(String datasourceId) {
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT account_id FROM datasource_bindings WHERE datasource_id = ?")) {
      s.setString(1, datasourceId);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read datasource_bindings for '" + datasourceId + "': " + e.getMessage(), e);
    }
  }

  /**
   * Whether a live grant of {@code datasourceId} to {@code accountId} exists (decision 1620); the
   * grants themselves are made and revoked through {@link PostgresDatasourceGrants}.
   */
  @Override
  public boolean granted(String datasourceId, String accountId) {
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT 1 FROM datasource_grants WHERE datasource_id = ? AND grantee_account_id"
                    + " = ? AND revoked_at IS NULL")) {
      s.setString(1, datasourceId);
      s.setString(2, accountId);
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read datasource_grants for '" + datasourceId + "': " + e.getMessage(), e);
    }
  }

  /** Every account that owns a datasource (the local platform restores their intake rules on start). */
  public List<String> accounts() {
    List<String> found = new ArrayList<>();
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
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

  private static void requireNonBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": must be non-blank, got '" + value + "'");
    }
  }
}
