package dev.protomolt.engine.graphs;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A database that can be switched off and on, as during a failover: while down, every connection
 * attempt fails the way a refused connection does.
 */
final class FlakyDataSource implements DataSource {
  private final DataSource real;
  volatile boolean down;

  FlakyDataSource(DataSource real) {
    this.real = real;
  }

  /** A database that stays down for good. */
  static FlakyDataSource alwaysDown() {
    FlakyDataSource ds = new FlakyDataSource(null);
    ds.down = true;
    return ds;
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (down) {
      throw new SQLException("connection refused (failover in progress)");
    }
    return real.getConnection();
  }

  @Override
  public Connection getConnection(String u, String p) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getGlobal();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
