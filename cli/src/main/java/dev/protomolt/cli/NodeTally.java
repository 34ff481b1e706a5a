package dev.protomolt.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;

/**
 * How far a set of documents got, node by node, as the document store's ledger records it: at each
 * node (the intake copies appear under the datasource's id) how many of the documents were stored
 * there and how many parts those copies hold.
 *
 * @param node the graph node, or {@code intake:<datasource>} for the intake copies
 * @param documents documents stored at the node
 * @param parts present parts of those copies (core, blobs, chunk sets, parsed metadata)
 */
public record NodeTally(String node, int documents, long parts) {

  static List<NodeTally> of(
      DataSource db, String accountId, String graphId, Collection<String> docIds) {
    List<NodeTally> tallies = new ArrayList<>();
    String sql =
        "SELECT CASE WHEN row_kind = 'INTAKE' THEN 'intake:' || graph_address_id"
            + " ELSE graph_address_id END AS node, count(DISTINCT doc_id),"
            + " coalesce(sum((SELECT count(*) FROM jsonb_array_elements(manifest -> 'entries') e"
            + "   WHERE e ->> 'state' = 'PART_STATE_PRESENT')), 0)"
            + " FROM pipedocs WHERE account_id = ? AND doc_id = ANY (?) AND status = 'ACTIVE'"
            + " AND (graph_id = ? OR graph_id = 'intake:' || account_id)"
            + " GROUP BY 1 ORDER BY min(created_at), 1";
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, accountId);
      s.setArray(2, c.createArrayOf("text", docIds.toArray(String[]::new)));
      s.setString(3, graphId);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          tallies.add(new NodeTally(r.getString(1), r.getInt(2), r.getLong(3)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the document ledger: " + e.getMessage(), e);
    }
    return List.copyOf(tallies);
  }
}
