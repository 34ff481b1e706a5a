package dev.protomolt.db;

import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the schema in {@code db/migrations}. The local cloud, every database test and the
 * deployed migration function call this one method, so there is exactly one way the schema comes
 * to be.
 */
public final class Migrations {

  /** Classpath location the build copies {@code db/migrations} to. */
  public static final String LOCATION = "classpath:db/migration";

  private Migrations() {}

  /** Brings the database behind {@code dataSource} to the newest schema version. */
  public static MigrationReport apply(DataSource dataSource) {
    Objects.requireNonNull(dataSource, "dataSource");
    MigrateResult result =
        Flyway.configure()
            .dataSource(dataSource)
            .locations(LOCATION)
            // A migration edited after it ran is a bug to fix, not something to paper over.
            .validateOnMigrate(true)
            .cleanDisabled(true)
            .load()
            .migrate();
    return new MigrationReport(
        result.initialSchemaVersion, result.targetSchemaVersion, result.migrationsExecuted);
  }

  /** Same, for callers that hold connection settings rather than a pool. */
  public static MigrationReport apply(String jdbcUrl, String user, String password) {
    MigrateResult result =
        Flyway.configure()
            .dataSource(jdbcUrl, user, password)
            .locations(LOCATION)
            .validateOnMigrate(true)
            .cleanDisabled(true)
            .load()
            .migrate();
    return new MigrationReport(
        result.initialSchemaVersion, result.targetSchemaVersion, result.migrationsExecuted);
  }

  /**
   * What one run did.
   *
   * @param fromVersion schema version before the run, null on an empty database
   * @param toVersion schema version after the run, null when nothing was applied
   * @param applied number of migrations executed
   */
  public record MigrationReport(String fromVersion, String toVersion, int applied) {}

  /** {@code java dev.protomolt.db.Migrations JDBC_URL USER PASSWORD} for operators. */
  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: Migrations JDBC_URL USER PASSWORD");
      System.exit(2);
    }
    MigrationReport report = apply(args[0], args[1], args[2]);
    System.out.printf(
        "schema %s -> %s (%d applied)%n",
        report.fromVersion(), report.toVersion(), report.applied());
  }
}
