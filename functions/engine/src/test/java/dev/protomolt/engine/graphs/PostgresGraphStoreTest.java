package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStoreContract;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The shared store behaviour on real PostgreSQL 17, plus what only the database can show. */
class PostgresGraphStoreTest extends GraphStoreContract {

  private DataSource dataSource;

  @Override
  protected GraphStore emptyStore() throws Exception {
    dataSource = EmbeddedDatabase.emptied();
    return new PostgresGraphStore(dataSource);
  }

  @Test
  void storesTheGraphAsJsonbAndAsProto() throws Exception {
    store.create(linear("g", 0), OptionalLong.empty(), "ann", NOW);
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT graph_json->>'graphId', graph_json->'nodes'->1->>'moduleId',"
                    + " jsonb_array_length(graph_json->'edges'), octet_length(graph_proto) FROM"
                    + " pipeline_graphs")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("g");
      assertThat(rs.getString(2)).isEqualTo("parser");
      assertThat(rs.getInt(3)).isEqualTo(3);
      assertThat(rs.getInt(4)).isPositive();
    }
  }

  @Test
  void theDatabaseItselfAllowsOneActiveVersionPerGraphAndCluster() throws Exception {
    store.create(linear("g", 0), OptionalLong.empty(), "ann", NOW);
    store.create(linear("g", 0), OptionalLong.empty(), "ann", NOW);
    store.activate("g", "c1", 1, 0);
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      assertThatThrownBy(
              () -> s.execute("UPDATE pipeline_graphs SET is_active = TRUE WHERE version = 2"))
          .hasMessageContaining("uq_pipeline_graphs_one_active");
      assertThatThrownBy(
              () ->
                  s.execute(
                      "INSERT INTO datasource_subscriptions VALUES"
                          + " ('g:1:wrong', 'g', 1, 'ds-1', 'c1', 'acme', 'in')"))
          .hasMessageContaining("chk_subscription_id");
    }
  }

  @Test
  void concurrentAutoIncrementingCreatesGetDistinctVersions() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Callable<Long> create =
            () ->
                store.create(linear("g", 0), OptionalLong.empty(), "ann", NOW).graph().getVersion();
        futures.add(pool.submit(create));
      }
      List<Long> versions = new ArrayList<>();
      for (Future<Long> f : futures) {
        versions.add(f.get());
      }
      assertThat(versions).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDatabaseFailureIsUnavailableNeverAnEmptyAnswer() {
    GraphStore broken = new PostgresGraphStore(FlakyDataSource.alwaysDown());
    assertThatThrownBy(() -> broken.subscriptions("ds-1"))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.UNAVAILABLE))
        .hasMessageContaining("graph store unavailable");
    assertThatThrownBy(() -> broken.get("g", 1)).isInstanceOf(GraphAdminException.class);
  }
}
