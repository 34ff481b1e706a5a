package dev.protomolt.engine.admission;

import dev.protomolt.core.orchestration.AdmissionLog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** {@link AdmissionLog} on the {@code intake_admissions} table (migration V800). */
public final class PostgresAdmissionLog implements AdmissionLog {

  private final DataSource dataSource;

  public PostgresAdmissionLog(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public void record(AdmissionRecord r) {
    String sql =
        "INSERT INTO intake_admissions (account_id, datasource_id, doc_id, graph_id, graph_version,"
            + " outcome, execution_name, execution_arn, detail, recorded_at) VALUES"
            + " (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (account_id, datasource_id, doc_id, graph_id,"
            + " graph_version) DO UPDATE SET outcome = EXCLUDED.outcome, execution_name ="
            + " EXCLUDED.execution_name, execution_arn = CASE WHEN EXCLUDED.execution_arn = '' THEN"
            + " intake_admissions.execution_arn ELSE EXCLUDED.execution_arn END, detail ="
            + " EXCLUDED.detail, recorded_at = EXCLUDED.recorded_at";
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, r.accountId());
      s.setString(2, r.datasourceId());
      s.setString(3, r.docId());
      s.setString(4, r.graphId());
      s.setLong(5, r.graphVersion());
      s.setString(6, r.outcome().name());
      s.setString(7, r.executionName());
      s.setString(8, r.executionArn());
      s.setString(9, r.detail());
      s.setTimestamp(10, Timestamp.from(r.recordedAt()));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "recording the admission of doc '" + r.docId() + "' failed: " + e.getMessage(), e);
    }
  }

  @Override
  public List<AdmissionRecord> forDocument(String accountId, String datasourceId, String docId) {
    String sql =
        "SELECT graph_id, graph_version, outcome, execution_name, execution_arn, detail,"
            + " recorded_at FROM intake_admissions WHERE account_id = ? AND datasource_id = ? AND"
            + " doc_id = ? ORDER BY graph_id, graph_version";
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, accountId);
      s.setString(2, datasourceId);
      s.setString(3, docId);
      List<AdmissionRecord> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(
              new AdmissionRecord(
                  accountId,
                  datasourceId,
                  docId,
                  rs.getString(1),
                  rs.getLong(2),
                  Outcome.valueOf(rs.getString(3)),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6),
                  rs.getTimestamp(7).toInstant()));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(
          "reading the admissions of doc '" + docId + "' failed: " + e.getMessage(), e);
    }
  }
}
