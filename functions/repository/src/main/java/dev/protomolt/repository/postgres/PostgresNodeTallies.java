package dev.protomolt.repository.postgres;

import dev.protomolt.core.memo.MemoPolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * How far a set of documents got, node by node, as the ledger's {@code pipedocs} rows record it:
 * the documents stored at each node of one graph (intake copies under {@code
 * intake:<datasource>}) and the present parts of those copies.
 */
public final class PostgresNodeTallies {

  /** One node's count: documents stored there and the present parts of their copies. */
  public record NodeCount(String node, int documents, long parts) {}

  private final DataSource dataSource;

  public PostgresNodeTallies(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** The active copies of {@code docIds} in {@code accountId} under {@code graphId}, by node. */
  public List<NodeCount> of(String accountId, String graphId, Collection<String> docIds) {
    List<NodeCount> tallies = new ArrayList<>();
    String sql =
        "SELECT CASE WHEN row_kind = 'INTAKE' THEN 'intake:' || graph_address_id"
            + " ELSE graph_address_id END AS node, count(DISTINCT doc_id),"
            + " coalesce(sum((SELECT count(*) FROM jsonb_array_elements(manifest -> 'entries') e"
            + "   WHERE e ->> 'state' = 'PART_STATE_PRESENT')), 0)"
            + " FROM pipedocs WHERE account_id = ? AND doc_id = ANY (?) AND status = 'ACTIVE'"
            + " AND (graph_id = ? OR graph_id = 'intake:' || account_id)"
            // A memoized output's copy (<node>.memo, decision 1812) is the memo index's storage,
            // not a node the document reached: a run reports the graph's nodes only (decision
            // 1814).
            + " AND graph_address_id NOT LIKE '%' || ?"
            + " GROUP BY 1 ORDER BY min(created_at), 1";
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, accountId);
      s.setArray(2, c.createArrayOf("text", docIds.toArray(String[]::new)));
      s.setString(3, graphId);
      s.setString(4, MemoPolicy.MEMO_ADDRESS_SUFFIX);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          tallies.add(new NodeCount(r.getString(1), r.getInt(2), r.getLong(3)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the document ledger: " + e.getMessage(), e);
    }
    return List.copyOf(tallies);
  }
}
