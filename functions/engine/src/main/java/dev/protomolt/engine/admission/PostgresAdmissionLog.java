package dev.protomolt.engine.admission;

import dev.protomolt.core.orchestration.AdmissionLog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
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

  /** Every admission of account {@code accountId}, oldest first (what the local platform shows). */
  public List<AdmissionRecord> forAccount(String accountId) {
    return query(
        "SELECT account_id, datasource_id, doc_id, graph_id, graph_version, outcome,"
            + " execution_name, execution_arn, detail, recorded_at FROM intake_admissions WHERE"
            + " account_id = ? ORDER BY recorded_at, doc_id, graph_id",
        "the admissions of account '" + accountId + "'",
        (c, s) -> s.setString(1, accountId));
  }

  /**
   * The admissions of {@code docIds} in account {@code accountId} recorded at or after {@code
   * since}, by document then graph (what a watcher of one upload batch reads).
   */
  public List<AdmissionRecord> forDocuments(
      String accountId, Collection<String> docIds, Instant since) {
    return query(
        "SELECT account_id, datasource_id, doc_id, graph_id, graph_version, outcome,"
            + " execution_name, execution_arn, detail, recorded_at FROM intake_admissions WHERE"
            + " account_id = ? AND doc_id = ANY (?) AND recorded_at >= ? ORDER BY doc_id,"
            + " graph_id, graph_version",
        "the admissions of " + docIds.size() + " documents of account '" + accountId + "'",
        (c, s) -> {
          s.setString(1, accountId);
          s.setArray(2, c.createArrayOf("text", docIds.toArray(String[]::new)));
          s.setTimestamp(3, Timestamp.from(since));
        });
  }

  /** Binds a query's parameters; the connection is there for arrays. */
  private interface Binder {
    void bind(Connection c, PreparedStatement s) throws SQLException;
  }

  private List<AdmissionRecord> query(String sql, String what, Binder binder) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      binder.bind(c, s);
      List<AdmissionRecord> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(
              new AdmissionRecord(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getLong(5),
                  Outcome.valueOf(rs.getString(6)),
                  rs.getString(7),
                  rs.getString(8),
                  rs.getString(9),
                  rs.getTimestamp(10).toInstant()));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("reading " + what + " failed: " + e.getMessage(), e);
    }
  }
}
