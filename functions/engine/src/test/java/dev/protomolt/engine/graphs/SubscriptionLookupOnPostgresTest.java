package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Intake's lookup over the real store: a database blip throws and is not remembered as "unbound". */
class SubscriptionLookupOnPostgresTest {

  /** A data source whose database can be switched off and on, like a failover. */
  static final class FlakyDataSource implements DataSource {
    final DataSource real;
    volatile boolean down;

    FlakyDataSource(DataSource real) {
      this.real = real;
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

  @Test
  void aFailedLoadThrowsAndTheNextCallAsksTheDatabaseAgain() throws Exception {
    FlakyDataSource ds = new FlakyDataSource(EmbeddedDatabase.emptied());
    PostgresGraphStore store = new PostgresGraphStore(ds);
    store.create(linear("g", 0), OptionalLong.empty(), "ann", Instant.EPOCH);
    store.activate("g", "c1", 1, 0);
    SubscriptionLookup lookup = new SubscriptionLookup(store::subscriptions,
        new FakeClock(Instant.EPOCH), Duration.ofMinutes(1));

    ds.down = true;
    assertThatThrownBy(() -> lookup.forDatasource("ds-1"))
        .isInstanceOf(GraphAdminException.class)
        .hasMessageContaining("graph store unavailable");
    ds.down = false;
    assertThat(lookup.forDatasource("ds-1")).extracting(DatasourceSubscription::getSubscriptionId)
        .containsExactly("g:1:ds-1");
  }
}
