package dev.protomolt.engine.activation;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL 17 per test JVM for the engine's activation, admission and hop tests;
 * each test gets its own freshly migrated database, so the local Step Functions runtime's tables
 * and the graph tables start empty.
 */
public final class EngineDatabase {

  public static final PipelineCelEnvironment CEL = PipelineCelEnvironment.create();

  /** The test datasources (the sample graphs' and the golden graphs') belong to account "acme". */
  public static final TenancyDirectory TENANCY =
      id ->
          Optional.ofNullable(
              Map.of("ds-1", "acme", "ds-2", "acme", "acme-crawl", "acme", "acme-uploads", "acme")
                  .get(id));

  private static EmbeddedPostgres postgres;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private EngineDatabase() {}

  /**
   * A new empty database with no migrations applied: every store on it fails with PostgreSQL's own
   * "relation does not exist", a real fault for tests of best-effort writers.
   */
  public static synchronized DataSource unmigrated() {
    fresh();
    String name = "engine_bare_" + DATABASES.incrementAndGet();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return postgres.getDatabase("postgres", name);
  }

  public static synchronized DataSource fresh() {
    try {
      if (postgres == null) {
        postgres = EmbeddedPostgres.builder().start();
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
      String name = "engine_" + DATABASES.incrementAndGet();
      try (Connection c = postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + name);
      }
      DataSource ds = postgres.getDatabase("postgres", name);
      Migrations.apply(ds);
      return ds;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
