package dev.protomolt.repository.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Whether a pinned graph version still exists, over the {@code pipeline_graphs} table (db migration
 * V200): the gateway drains work pinned to a deleted version.
 */
public final class PostgresGraphVersions {

  private final DataSource dataSource;

  public PostgresGraphVersions(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Whether version {@code version} of graph {@code graphId} is stored. */
  public boolean exists(String graphId, long version) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT 1 FROM pipeline_graphs WHERE graph_id = ? AND version = ?")) {
      s.setString(1, graphId);
      s.setLong(2, version);
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "looking up graph " + graphId + " version " + version + " failed: " + e.getMessage(), e);
    }
  }
}
