package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Where uploaded documents stand: what intake admitted each to ({@code intake_admissions}) and how
 * each admission's Step Functions execution ended. A document is terminal once it has at least one
 * admission since {@code since} and every such admission is terminal: UNBOUND or UNDEPLOYED
 * (recorded, nothing to run), or an execution no longer RUNNING, whose disposition is the
 * execution's output {@code disposition} (SINK_REACHED, ...) or its status and error.
 */
final class DispositionWatch {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final DataSource db;
  private final SfnClient sfn;
  private final String accountId;
  private final Instant since;
  /** Finished executions never change; remember them rather than describe them again. */
  private final Map<String, String> endedByArn = new HashMap<>();

  DispositionWatch(DataSource db, SfnClient sfn, String accountId, Instant since) {
    this.db = db;
    this.sfn = sfn;
    this.accountId = accountId;
    this.since = since;
  }

  /** Document id → its disposition, for each of {@code docIds} that is terminal now. */
  Map<String, String> terminal(Collection<String> docIds) {
    Map<String, List<String[]>> admissions = new LinkedHashMap<>();
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement("SELECT doc_id, graph_id, outcome, execution_arn"
            + " FROM intake_admissions WHERE account_id = ? AND doc_id = ANY (?) AND recorded_at >= ?"
            + " ORDER BY doc_id, graph_id")) {
      s.setString(1, accountId);
      s.setArray(2, c.createArrayOf("text", docIds.toArray(String[]::new)));
      s.setTimestamp(3, Timestamp.from(since));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          admissions.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
              .add(new String[] {r.getString(2), r.getString(3), r.getString(4)});
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read intake_admissions: " + e.getMessage(), e);
    }
    Map<String, String> done = new TreeMap<>();
    for (Map.Entry<String, List<String[]>> doc : admissions.entrySet()) {
      List<String> parts = new ArrayList<>();
      for (String[] a : doc.getValue()) {
        String disposition = disposition(a[1], a[2]);
        if (disposition == null) {
          parts = null;
          break;
        }
        parts.add(doc.getValue().size() == 1 || a[0].isEmpty() ? disposition : a[0] + ":" + disposition);
      }
      if (parts != null) {
        done.put(doc.getKey(), String.join(", ", parts));
      }
    }
    return done;
  }

  /** The admission's disposition, or null while its execution runs (or has not started). */
  private String disposition(String outcome, String executionArn) {
    if (outcome.equals("UNBOUND") || outcome.equals("UNDEPLOYED")) {
      return outcome;
    }
    if (executionArn.isEmpty()) {
      return null;
    }
    String ended = endedByArn.get(executionArn);
    if (ended != null) {
      return ended;
    }
    DescribeExecutionResponse d = sfn.describeExecution(b -> b.executionArn(executionArn));
    if (d.status() == ExecutionStatus.RUNNING) {
      return null;
    }
    ended = dispositionOf(d);
    endedByArn.put(executionArn, ended);
    return ended;
  }

  static String dispositionOf(DescribeExecutionResponse d) {
    if (d.status() != ExecutionStatus.SUCCEEDED) {
      return d.status() + (d.error() == null ? "" : " (" + d.error() + ")");
    }
    try {
      JsonNode out = JSON.readTree(d.output());
      return out.path("disposition").asText("SUCCEEDED");
    } catch (IOException e) {
      return "SUCCEEDED (unreadable output)";
    }
  }
}
