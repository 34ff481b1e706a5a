package dev.protomolt.localstack.cloud;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Logger;

/**
 * The ledger's database and login as the stack names them on the Aurora cluster: database {@code
 * protomolt} and its master user {@code protomolt}, which locally is a superuser as the master user
 * is the cluster's administrator in AWS. A data folder from before the ledger had its own database
 * kept the schema in {@code postgres}; its first start copies that database, so nothing recorded
 * is lost and the old database is left as it was.
 */
final class LedgerDatabase {

  private static final Logger LOG = Logger.getLogger(LedgerDatabase.class.getName());

  private LedgerDatabase() {}

  /** Creates {@code user} and {@code database} unless they exist; idempotent. */
  static void ensure(EmbeddedPostgres postgres, String database, String user) {
    try (Connection c = postgres.getDatabase(LocalPostgres.USER, "postgres").getConnection()) {
      if (!exists(c, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE ROLE " + identifier(user) + " LOGIN SUPERUSER");
        }
      }
      if (exists(c, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
        return;
      }
      boolean legacy =
          exists(
              c,
              "SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'"
                  + " AND table_name = ?",
              "flyway_schema_history");
      if (!legacy) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE DATABASE " + identifier(database) + " OWNER " + identifier(user));
        }
        return;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          LocalPostgres.COMPONENT + ": cannot create the ledger's role and database: " + e, e);
    }
    // A copy needs no session on its template, so it is made from another database.
    try (Connection c = postgres.getDatabase(LocalPostgres.USER, "template1").getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE DATABASE "
              + identifier(database)
              + " TEMPLATE postgres OWNER "
              + identifier(user));
      LOG.info(
          "the ledger moved to database "
              + database
              + ": copied from database postgres, which is left as it was");
    } catch (SQLException e) {
      throw new IllegalStateException(
          LocalPostgres.COMPONENT
              + ": cannot copy the ledger from database postgres to "
              + database
              + ": "
              + e,
          e);
    }
  }

  private static boolean exists(Connection c, String sql, String value) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setString(1, value);
      try (ResultSet r = p.executeQuery()) {
        return r.next();
      }
    }
  }

  private static String identifier(String name) {
    if (!name.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("not a plain SQL identifier: " + name);
    }
    return name;
  }
}
