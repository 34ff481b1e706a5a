package dev.protomolt.engine.graphs;

import dev.protomolt.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL 17 per test JVM, migrated once; each test gets emptied graph tables.
 * Started lazily and stopped by a shutdown hook, so several test classes share it.
 */
final class EmbeddedDatabase {

  private static EmbeddedPostgres postgres;

  private EmbeddedDatabase() {}

  static synchronized DataSource migrated() throws IOException {
    if (postgres == null) {
      postgres = EmbeddedPostgres.builder().start();
      Migrations.apply(postgres.getPostgresDatabase());
      EmbeddedPostgres started = postgres;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      started.close();
                    } catch (IOException ignored) {
                      // The JVM is exiting; the data directory is temporary either way.
                    }
                  }));
    }
    return postgres.getPostgresDatabase();
  }

  static DataSource emptied() throws IOException, SQLException {
    DataSource ds = migrated();
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE datasource_subscriptions, pipeline_graphs, pipeline_graph_epochs");
    }
    return ds;
  }
}
