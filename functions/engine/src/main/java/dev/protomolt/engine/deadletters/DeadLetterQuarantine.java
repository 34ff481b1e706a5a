package dev.protomolt.engine.deadletters;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Dead letters that reached their reprocess cap, in {@code dlq_quarantine}: a quarantined letter
 * is never re-driven again, and its reason is what {@code list} and {@code show} report.
 */
public final class DeadLetterQuarantine {

  private final DataSource dataSource;

  public DeadLetterQuarantine(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Quarantines {@code letter}; a second quarantine of the same letter keeps the first reason. */
  public void quarantine(DeadLetter letter, String reason, Instant at) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO dlq_quarantine (dlq_id, account_id, graph_id, node_id, topic, "
                    + "kafka_partition, kafka_offset, reprocess_count, reason, quarantined_at) "
                    + "VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (dlq_id) DO NOTHING")) {
      ps.setString(1, letter.message().getDlqId());
      ps.setString(2, letter.accountId());
      ps.setString(3, letter.message().getGraphId());
      ps.setString(4, letter.message().getNodeId());
      ps.setString(5, letter.topic());
      ps.setInt(6, letter.partition());
      ps.setLong(7, letter.offset());
      ps.setInt(8, letter.message().getReprocessCount());
      ps.setString(9, reason);
      ps.setTimestamp(10, Timestamp.from(at));
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot quarantine dead letter " + letter.message().getDlqId() + ": " + e.getMessage(),
          e);
    }
  }

  /** The quarantine reason of each of {@code dlqIds} that is quarantined. */
  public Map<String, String> reasons(List<String> dlqIds) {
    Map<String, String> out = new HashMap<>();
    if (dlqIds.isEmpty()) {
      return out;
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT dlq_id, reason FROM dlq_quarantine WHERE dlq_id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", dlqIds.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read the dead-letter quarantine: " + e.getMessage(), e);
    }
  }
}
