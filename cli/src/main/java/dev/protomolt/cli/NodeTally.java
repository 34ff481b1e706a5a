package dev.protomolt.cli;

import dev.protomolt.repository.postgres.PostgresNodeTallies;
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
    return new PostgresNodeTallies(db)
        .of(accountId, graphId, docIds).stream()
            .map(n -> new NodeTally(n.node(), n.documents(), n.parts()))
            .toList();
  }
}
