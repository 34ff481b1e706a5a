package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.fixtures.PostgresFixture;
import dev.protomolt.repository.postgres.PostgresGraphVersions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Dead-graph screening over the real pipeline_graphs table. */
class DeadGraphScreenTest {

  static PostgresFixture postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = PostgresFixture.start();
    try (Connection c = postgres.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO pipeline_graph_epochs (graph_id, cluster_id) VALUES ('news', 'default')");
      s.execute(
          "INSERT INTO pipeline_graphs (graph_id, version, cluster_id, graph_json, graph_proto,"
              + " created_at) VALUES ('news', 2, 'default', '{}', '\\x00', now())");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  static WorkDispatch pinned(String graph, long version) {
    return WorkDispatch.newBuilder()
        .setWorkUnitId("u-" + graph + version)
        .setGraphId(graph)
        .setGraphVersion(version)
        .build();
  }

  @Test
  void aDeletedVersionIsDrainedAndALiveOneServed() {
    DeadGraphScreen screen =
        new DeadGraphScreen(
            new PostgresGraphVersions(postgres.dataSource())::exists, Duration.ofSeconds(30));
    assertThat(screen.screen(pinned("news", 2))).isEqualTo(ScreenVerdict.SERVE);
    assertThat(screen.screen(pinned("news", 1)))
        .isInstanceOfSatisfying(
            ScreenVerdict.Drain.class,
            d -> {
              assertThat(d.reason()).isEqualTo("graph-version-deleted");
              assertThat(d.detail()).contains("news", "version 1");
            });
    assertThat(screen.screen(pinned("gone-graph", 5))).isInstanceOf(ScreenVerdict.Drain.class);
    assertThat(screen.screen(WorkDispatch.getDefaultInstance()))
        .as("no pin, nothing to check")
        .isEqualTo(ScreenVerdict.SERVE);
  }

  @Test
  void aBacklogOfOneDeadVersionCostsOneLookup() {
    AtomicInteger lookups = new AtomicInteger();
    PostgresGraphVersions db = new PostgresGraphVersions(postgres.dataSource());
    DeadGraphScreen screen =
        new DeadGraphScreen(
            (g, v) -> {
              lookups.incrementAndGet();
              return db.exists(g, v);
            },
            Duration.ofSeconds(30));
    for (int i = 0; i < 1000; i++) {
      assertThat(screen.screen(pinned("news", 1))).isInstanceOf(ScreenVerdict.Drain.class);
      assertThat(screen.screen(pinned("news", 2))).isEqualTo(ScreenVerdict.SERVE);
    }
    assertThat(lookups).hasValue(2);
  }

  @Test
  void aFailedLookupSaysWhichPinItWasFor() {
    PostgresGraphVersions broken = new PostgresGraphVersions(new PGSimpleDataSource());
    assertThatThrownBy(() -> broken.exists("news", 9)).hasMessageContaining("graph news version 9");
  }
}
