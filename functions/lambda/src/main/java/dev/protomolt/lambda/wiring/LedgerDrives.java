package dev.protomolt.lambda.wiring;

import dev.protomolt.core.store.Drive;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Every drive the ledger knows, for the reconciler's scheduled sweep. The directory port answers
 * lookups by name only, so the names come from the drives table and each is read through it.
 */
final class LedgerDrives {

  private static final String NAMES = "SELECT drive_name FROM drives ORDER BY drive_name";

  private final DataSource dataSource;

  LedgerDrives(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  List<Drive> all() {
    PostgresDriveDirectory directory = new PostgresDriveDirectory(dataSource);
    List<Drive> drives = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(NAMES);
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        directory.findByName(r.getString(1)).ifPresent(drives::add);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list the drives to reconcile: " + e.getMessage(), e);
    }
    return drives;
  }
}
