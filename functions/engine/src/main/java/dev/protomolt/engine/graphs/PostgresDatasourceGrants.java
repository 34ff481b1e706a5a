package dev.protomolt.engine.graphs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Grants of a datasource to another account's graphs, in {@code datasource_grants} (migration
 * V1620, decision 1620). Only the datasource's owner grants or revokes, and every grant and revoke
 * is recorded with its principal and time; a revoked row stays, so the table is its own audit.
 * Graph validation reads live grants through {@link PostgresDatasourceBindings#granted}, and
 * admission checks them again for every upload, so a revoke stops the next upload from reaching the
 * grantee's graphs even while those graphs stay active.
 */
public final class PostgresDatasourceGrants {

  private static final String COLUMNS =
      "grant_id, datasource_id, grantee_account_id, granted_by, granted_at, reason, revoked_by,"
          + " revoked_at";

  private final DataSource db;
  private final PostgresDatasourceBindings owners;
  private final InstantSource clock;

  public PostgresDatasourceGrants(DataSource db, InstantSource clock) {
    this.db = Objects.requireNonNull(db, "db");
    this.owners = new PostgresDatasourceBindings(db);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Grants {@code datasourceId}, owned by {@code ownerAccountId}, to {@code granteeAccountId}'s
   * graphs and returns the live grant; granting again what is already live returns the existing
   * grant unchanged (a retried call changes nothing).
   *
   * @throws IllegalArgumentException naming the field: a blank id or principal, an unregistered
   *     datasource, an owner that is not the datasource's owner, or a grantee that is the owner
   */
  public DatasourceGrant grant(
      String datasourceId,
      String ownerAccountId,
      String granteeAccountId,
      String principal,
      String reason) {
    requireOwner(datasourceId, ownerAccountId, "grant");
    requireNonBlank("granteeAccountId", granteeAccountId);
    requireNonBlank("principal", principal);
    if (granteeAccountId.equals(ownerAccountId)) {
      throw new IllegalArgumentException(
          "granteeAccountId: '"
              + granteeAccountId
              + "' already owns datasource '"
              + datasourceId
              + "'; a grant is for another account");
    }
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO datasource_grants (datasource_id, grantee_account_id, granted_by,"
                    + " granted_at, reason) VALUES (?, ?, ?, ?, ?) ON CONFLICT (datasource_id,"
                    + " grantee_account_id) WHERE revoked_at IS NULL DO NOTHING")) {
      s.setString(1, datasourceId);
      s.setString(2, granteeAccountId);
      s.setString(3, principal);
      s.setTimestamp(4, Timestamp.from(clock.instant()));
      s.setString(5, reason == null ? "" : reason);
      s.executeUpdate();
    } catch (SQLException e) {
      throw failure("cannot grant datasource '" + datasourceId + "'", e);
    }
    return live(datasourceId, granteeAccountId)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "grant of datasource '" + datasourceId + "' cannot be read back"));
  }

  /**
   * Revokes the live grant of {@code datasourceId} to {@code granteeAccountId} and returns it as
   * revoked.
   *
   * @throws IllegalArgumentException naming the field: a blank id or principal, an owner that is
   *     not the datasource's owner, or no live grant to revoke
   */
  public DatasourceGrant revoke(
      String datasourceId, String ownerAccountId, String granteeAccountId, String principal) {
    requireOwner(datasourceId, ownerAccountId, "revoke");
    requireNonBlank("granteeAccountId", granteeAccountId);
    requireNonBlank("principal", principal);
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE datasource_grants SET revoked_by = ?, revoked_at = ? WHERE datasource_id"
                    + " = ? AND grantee_account_id = ? AND revoked_at IS NULL RETURNING "
                    + COLUMNS)) {
      s.setString(1, principal);
      s.setTimestamp(2, Timestamp.from(clock.instant()));
      s.setString(3, datasourceId);
      s.setString(4, granteeAccountId);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new IllegalArgumentException(
              "granteeAccountId: datasource '"
                  + datasourceId
                  + "' has no live grant to '"
                  + granteeAccountId
                  + "' to revoke");
        }
        return read(r);
      }
    } catch (SQLException e) {
      throw failure("cannot revoke the grant of datasource '" + datasourceId + "'", e);
    }
  }

  /** Every grant of a datasource, live and revoked, oldest first: the audit of who shared it. */
  public List<DatasourceGrant> history(String datasourceId) {
    requireNonBlank("datasourceId", datasourceId);
    List<DatasourceGrant> found = new ArrayList<>();
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT "
                    + COLUMNS
                    + " FROM datasource_grants WHERE datasource_id = ? ORDER BY grant_id")) {
      s.setString(1, datasourceId);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.add(read(r));
        }
      }
    } catch (SQLException e) {
      throw failure("cannot read the grants of datasource '" + datasourceId + "'", e);
    }
    return found;
  }

  /** The live grant of a datasource to an account, if there is one. */
  public Optional<DatasourceGrant> live(String datasourceId, String granteeAccountId) {
    return history(datasourceId).stream()
        .filter(g -> g.live() && g.granteeAccountId().equals(granteeAccountId))
        .findFirst();
  }

  private void requireOwner(String datasourceId, String ownerAccountId, String action) {
    requireNonBlank("datasourceId", datasourceId);
    requireNonBlank("ownerAccountId", ownerAccountId);
    String owner =
        owners
            .datasourceAccount(datasourceId)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "datasourceId: '" + datasourceId + "' is not registered"));
    if (!owner.equals(ownerAccountId)) {
      throw new IllegalArgumentException(
          "ownerAccountId: '"
              + ownerAccountId
              + "' does not own datasource '"
              + datasourceId
              + "'; only its owner may "
              + action
              + " access to it");
    }
  }

  private static DatasourceGrant read(ResultSet r) throws SQLException {
    Timestamp revokedAt = r.getTimestamp(8);
    return new DatasourceGrant(
        r.getLong(1),
        r.getString(2),
        r.getString(3),
        r.getString(4),
        r.getTimestamp(5).toInstant(),
        r.getString(6),
        Optional.ofNullable(r.getString(7)),
        Optional.ofNullable(revokedAt).map(Timestamp::toInstant));
  }

  private static IllegalStateException failure(String what, SQLException e) {
    return new IllegalStateException(what + ": " + e.getMessage(), e);
  }

  private static void requireNonBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": must be non-blank, got '" + value + "'");
    }
  }
}
