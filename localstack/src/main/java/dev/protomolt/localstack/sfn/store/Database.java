package dev.protomolt.localstack.sfn.store;

import dev.protomolt.db.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Plain JDBC over the runtime's data source: one connection per call, parameters by position. */
final class Database {

  /** Postgres' SQLSTATE for a unique-constraint violation. */
  static final String UNIQUE_VIOLATION = "23505";

  private final DataSource dataSource;

  Database(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  int update(String sql, Object... args) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, args)) {
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  /** Work on one connection in one transaction. */
  interface Transaction<T> {
    T run(Connection connection) throws SQLException;
  }

  <T> T inTransaction(String what, Transaction<T> work) {
    try {
      return Transactions.inTransaction(dataSource, work::run);
    } catch (SQLException e) {
      throw new StoreException(what, e);
    }
  }

  static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = prepare(c, sql, args)) {
      return ps.executeUpdate();
    }
  }

  <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, args);
        ResultSet rs = ps.executeQuery()) {
      List<T> out = new ArrayList<>();
      while (rs.next()) {
        out.add(mapper.map(rs));
      }
      return out;
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  <T> T one(String sql, RowMapper<T> mapper, Object... args) {
    List<T> rows = query(sql, mapper, args);
    return rows.isEmpty() ? null : rows.getFirst();
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... args)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg instanceof Instant instant) {
        ps.setObject(i + 1, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
      } else {
        ps.setObject(i + 1, arg);
      }
    }
    return ps;
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  static Integer nullableInt(ResultSet rs, String column) throws SQLException {
    int value = rs.getInt(column);
    return rs.wasNull() ? null : value;
  }

  /** A failed statement, with the SQL that failed. */
  static final class StoreException extends RuntimeException {
    StoreException(String sql, SQLException cause) {
      super("local Step Functions store failed (" + cause.getSQLState() + ") on: " + sql, cause);
    }

    boolean uniqueViolation() {
      return getCause() instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState());
    }
  }
}
