package dev.protomolt.localstack.sfn;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The local Step Functions runtime's own tables, applied from {@value #LOCATION} with their own
 * Flyway history ({@value #HISTORY_TABLE}), so the production migration set ({@code
 * db/migrations}, which the stack deploys) never creates them.
 *
 * <p>Data folders made before the move recorded the same tables as production migration 450 in
 * {@code flyway_schema_history}; production Flyway would refuse that database ("applied migration
 * not resolved locally"). {@link #adoptLegacy} removes that one history row before production
 * migrations run, and leaves the tables and their rows where they are: the local history then
 * records them as its version 1, whose statements create only what is missing.
 */
public final class LocalSfnSchema {

  public static final String LOCATION = "classpath:db/local-sfn";
  public static final String HISTORY_TABLE = "local_sfn_schema_history";

  /** Where the tables were recorded before they left the production set. */
  static final String LEGACY_SCRIPT = "V450__local_sfn.sql";

  private LocalSfnSchema() {}

  /** Adopts a legacy data folder's tables, then creates whatever of the runtime's is missing. */
  public static void apply(DataSource dataSource) {
    Objects.requireNonNull(dataSource, "dataSource");
    adoptLegacy(dataSource);
    Flyway.configure()
        .dataSource(dataSource)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        // The schema already holds the ledger's tables; this history starts below version 1.
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .validateOnMigrate(true)
        .cleanDisabled(true)
        .load()
        .migrate();
  }

  /**
   * Forgets production history row 450 ({@value #LEGACY_SCRIPT}) if a data folder still has it.
   * Returns whether it did. Safe on any database: without the row or the table it does nothing.
   */
  public static boolean adoptLegacy(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      DatabaseMetaData meta = c.getMetaData();
      try (ResultSet tables = meta.getTables(null, null, "flyway_schema_history", null)) {
        if (!tables.next()) {
          return false;
        }
      }
      try (PreparedStatement delete =
          c.prepareStatement(
              "DELETE FROM flyway_schema_history WHERE version = '450' AND script = ?")) {
        delete.setString(1, LEGACY_SCRIPT);
        return delete.executeUpdate() > 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot adopt the local Step Functions tables of an older data folder: " + e.getMessage(),
          e);
    }
  }
}
