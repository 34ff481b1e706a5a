package dev.protomolt.db;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * One way to run a unit of JDBC work in a transaction: commit on success, roll back on any failure,
 * and hand the connection back to the pool in auto-commit mode whatever happened. Callers keep the
 * choice of how a {@link SQLException} surfaces in their own domain.
 */
public final class Transactions {

  /** A unit of work on one connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private Transactions() {}

  /** Runs {@code work} in one transaction on a connection borrowed from {@code dataSource}. */
  public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        try {
          c.rollback();
        } catch (SQLException rollbackFailure) {
          // The original failure is the one the caller must see; keep the rollback's beside it.
          e.addSuppressed(rollbackFailure);
        }
        throw e;
      } finally {
        // Pools hand connections out as they got them back; never leak manual-commit mode.
        c.setAutoCommit(true);
      }
    }
  }
}
