package dev.protomolt.repository.replay;

import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The replay state machine's audit trail in {@code replay_runs} and {@code replay_pages}
 * (decision 1702): who asked, when, for what, and the counts by verdict, per run and per page.
 * Every write is an upsert keyed by the run and the page number, so a page the state machine
 * retries writes the same rows again instead of new ones.
 */
public final class ReplayAudit {

  /** What a run asked for, written once when it is validated. */
  public record Run(
      String runArn,
      String replayId,
      String requestedBy,
      String accountId,
      String graphId,
      long graphVersion,
      String targetNode,
      boolean dryRun,
      String selectorsJson,
      long candidatesTotal,
      Instant startedAt) {}

  /** One page as read and acted on; {@code counts} are that page's counts by verdict. */
  public record PageRow(
      String runArn,
      long pageNumber,
      String executionArn,
      String cursorAfter,
      String cursorNext,
      int candidates,
      Map<String, Long> counts,
      Instant readAt) {}

  /** A run as recorded so far: its request, its status and its running totals. */
  public record RunState(
      Run run,
      String status,
      Instant finishedAt,
      long pages,
      long candidates,
      Map<String, Long> counts) {}

  private final DataSource dataSource;

  public ReplayAudit(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Records the run's request; a run already recorded (a retried validation) is left as it is. */
  public void begin(Run run) {
    String sql =
        "INSERT INTO replay_runs (run_arn, replay_id, requested_by, account_id, graph_id,"
            + " graph_version, target_node, dry_run, selectors, candidates_total, status,"
            + " started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, 'RUNNING', ?)"
            + " ON CONFLICT (run_arn) DO NOTHING";
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, run.runArn());
      s.setString(2, run.replayId());
      s.setString(3, run.requestedBy());
      s.setString(4, run.accountId());
      s.setString(5, run.graphId());
      s.setLong(6, run.graphVersion());
      s.setString(7, run.targetNode());
      s.setBoolean(8, run.dryRun());
      s.setString(9, run.selectorsJson());
      s.setLong(10, run.candidatesTotal());
      s.setTimestamp(11, Timestamp.from(run.startedAt()));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("recording replay run " + run.runArn(), e);
    }
  }

  /**
   * Records one page and the run's totals after it, in one transaction: the totals are the ones the
   * state machine carries (absolute, not increments), so writing the same page twice changes
   * nothing.
   *
   * @param totals the run's counts by verdict including this page
   * @param last whether this page ends the run
   */
  public void page(PageRow page, long candidatesSoFar, Map<String, Long> totals, boolean last) {
    String pageSql =
        "INSERT INTO replay_pages (run_arn, page_number, execution_arn, cursor_after, cursor_next,"
            + " candidates, counts, read_at) VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?)"
            + " ON CONFLICT (run_arn, page_number) DO UPDATE SET execution_arn ="
            + " EXCLUDED.execution_arn, cursor_next = EXCLUDED.cursor_next, candidates ="
            + " EXCLUDED.candidates, counts = EXCLUDED.counts, read_at = EXCLUDED.read_at";
    String runSql =
        "UPDATE replay_runs SET pages = GREATEST(pages, ?), candidates = ?, counts = ?::jsonb,"
            + " status = ?, finished_at = ? WHERE run_arn = ?";
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement(pageSql);
          PreparedStatement r = c.prepareStatement(runSql)) {
        s.setString(1, page.runArn());
        s.setLong(2, page.pageNumber());
        s.setString(3, page.executionArn());
        s.setString(4, page.cursorAfter());
        s.setString(5, page.cursorNext());
        s.setInt(6, page.candidates());
        s.setString(7, json(page.counts()));
        s.setTimestamp(8, Timestamp.from(page.readAt()));
        s.executeUpdate();
        r.setLong(1, page.pageNumber());
        r.setLong(2, candidatesSoFar);
        r.setString(3, json(totals));
        r.setString(4, last ? "SUCCEEDED" : "RUNNING");
        r.setTimestamp(5, last ? Timestamp.from(page.readAt()) : null);
        r.setString(6, page.runArn());
        if (r.executeUpdate() != 1) {
          throw new SQLException(
              "no replay run " + page.runArn() + " was recorded to add a page to");
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new LedgerException(
          "recording page " + page.pageNumber() + " of replay run " + page.runArn(), e);
    }
  }

  /** The run recorded under {@code runArn}, if any. */
  public Optional<RunState> run(String runArn) {
    String sql =
        "SELECT replay_id, requested_by, account_id, graph_id, graph_version, target_node,"
            + " dry_run, selectors::text AS selectors, candidates_total, started_at, status,"
            + " finished_at, pages, candidates, counts::text AS counts FROM replay_runs"
            + " WHERE run_arn = ?";
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, runArn);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        Run run =
            new Run(
                runArn,
                rs.getString("replay_id"),
                rs.getString("requested_by"),
                rs.getString("account_id"),
                rs.getString("graph_id"),
                rs.getLong("graph_version"),
                rs.getString("target_node"),
                rs.getBoolean("dry_run"),
                rs.getString("selectors"),
                rs.getLong("candidates_total"),
                rs.getTimestamp("started_at").toInstant());
        Timestamp finished = rs.getTimestamp("finished_at");
        String countsText = rs.getString("counts");
        return Optional.of(
            new RunState(
                run,
                rs.getString("status"),
                finished == null ? null : finished.toInstant(),
                rs.getLong("pages"),
                rs.getLong("candidates"),
                counts(c, countsText)));
      }
    } catch (SQLException e) {
      throw new LedgerException("reading replay run " + runArn, e);
    }
  }

  /** How many pages the run recorded (a retried page is one row). */
  public long pageRows(String runArn) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM replay_pages WHERE run_arn = ?")) {
      s.setString(1, runArn);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new LedgerException("counting the pages of replay run " + runArn, e);
    }
  }

  /** Postgres reads the JSON back, so no JSON library is needed for a flat map of counts. */
  private static Map<String, Long> counts(Connection c, String json) throws SQLException {
    Map<String, Long> out = new TreeMap<>();
    try (PreparedStatement s =
        c.prepareStatement("SELECT key, value::bigint FROM jsonb_each_text(?::jsonb)")) {
      s.setString(1, json);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }

  /** A flat JSON object of counts; keys are verdict names, escaped in case one ever is not. */
  static String json(Map<String, Long> counts) {
    StringBuilder out = new StringBuilder("{");
    new TreeMap<>(counts)
        .forEach(
            (key, value) -> {
              if (out.length() > 1) {
                out.append(',');
              }
              out.append('"')
                  .append(key.replace("\\", "\\\\").replace("\"", "\\\""))
                  .append("\":")
                  .append(value);
            });
    return out.append('}').toString();
  }
}
