package dev.protomolt.repository.ledger;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.indexing.AttemptIds;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.events.v1.ParserProvenance;
import dev.protomolt.proto.events.v1.VectorSetProvenance;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The indexing ledger ({@code document_index_state} and its provenance children), fed by
 * {@link DocumentIndexedEvent} receipts. A receipt moves its row only when its ULID attempt id is
 * greater than the last one applied, so redelivered and out-of-order receipts are no-ops and the
 * ledger only moves forward. Each receipt is its own transaction: the row and its children change
 * together or not at all.
 */
public final class IndexingLedger {

  private static final String KEY =
      "account_id = ? AND doc_id = ? AND plan_id = ?" + " AND index_name = ?";

  // The WHERE clause is the load-bearing line: an update happens only for a newer attempt, and
  // RETURNING reports nothing when it did not, which is how a stale receipt is recognized.
  private static final String UPSERT =
      "INSERT INTO document_index_state (account_id, doc_id,"
          + " plan_id, index_name, outcome, last_attempt_id, graph_id, graph_version, node_id,"
          + " indexed_at, error_message, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (account_id, doc_id, plan_id, index_name) DO UPDATE SET"
          + " outcome = EXCLUDED.outcome, last_attempt_id = EXCLUDED.last_attempt_id,"
          + " graph_id = EXCLUDED.graph_id, graph_version = EXCLUDED.graph_version,"
          + " node_id = EXCLUDED.node_id, indexed_at = EXCLUDED.indexed_at,"
          + " error_message = EXCLUDED.error_message, updated_at = EXCLUDED.updated_at"
          + " WHERE EXCLUDED.last_attempt_id > document_index_state.last_attempt_id"
          + " RETURNING last_attempt_id";

  private final DataSource dataSource;
  private final Clock clock;

  public IndexingLedger(DataSource dataSource, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Applies a batch in order; one outcome per receipt. */
  public List<ReceiptOutcome> apply(List<DocumentIndexedEvent> batch) {
    List<ReceiptOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      DocumentIndexedEvent receipt = batch.get(i);
      String attemptId;
      try {
        attemptId = validate(receipt);
      } catch (IllegalArgumentException e) {
        outcomes.add(new ReceiptOutcome(i, ReceiptOutcome.Kind.REJECTED, e.getMessage()));
        continue;
      }
      boolean applied = upsert(receipt, attemptId);
      outcomes.add(
          new ReceiptOutcome(
              i,
              applied ? ReceiptOutcome.Kind.APPLIED : ReceiptOutcome.Kind.STALE,
              applied
                  ? "attempt " + attemptId
                  : "attempt " + attemptId + " is not newer than the last applied"));
    }
    return outcomes;
  }

  /** The current row for one (account, document, plan, index), if any receipt was applied. */
  public Optional<IndexState> find(
      String accountId, String docId, String planId, String indexName) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT outcome, last_attempt_id, node_id"
                    + " FROM document_index_state WHERE "
                    + KEY)) {
      bindKey(s, 1, accountId, docId, planId, indexName);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new IndexState(
                IndexOutcome.valueOf("INDEX_OUTCOME_" + rs.getString(1)),
                rs.getString(2),
                rs.getObject(3, UUID.class),
                parsers(c, accountId, docId, planId, indexName),
                vectorSets(c, accountId, docId, planId, indexName)));
      }
    } catch (SQLException e) {
      throw new LedgerException("reading document_index_state of " + docId, e);
    }
  }

  /** Every outcome recorded for a document across its plans and indices. */
  public Set<IndexOutcome> outcomes(String accountId, String docId) {
    Set<IndexOutcome> outcomes = new HashSet<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT DISTINCT outcome FROM"
                    + " document_index_state WHERE account_id = ? AND doc_id = ?")) {
      s.setString(1, accountId);
      s.setString(2, docId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          outcomes.add(IndexOutcome.valueOf("INDEX_OUTCOME_" + rs.getString(1)));
        }
      }
    } catch (SQLException e) {
      throw new LedgerException("reading document_index_state of " + docId, e);
    }
    return outcomes;
  }

  /**
   * The latest applied state of one index entry.
   *
   * @param nodeId the stored state that was indexed, when the receipt named one
   */
  public record IndexState(
      IndexOutcome outcome,
      String lastAttemptId,
      UUID nodeId,
      List<ParserProvenance> parserChain,
      List<VectorSetProvenance> vectorSets) {}

  private static String validate(DocumentIndexedEvent r) {
    String attemptId = AttemptIds.canonical(r.getAttemptId());
    requireNotBlank(r.getAccountId(), "account_id");
    requireNotBlank(r.getDocId(), "doc_id");
    requireNotBlank(r.getPlanId(), "plan_id");
    requireNotBlank(r.getIndexName(), "index_name");
    if (r.getOutcome() == IndexOutcome.INDEX_OUTCOME_UNSPECIFIED
        || r.getOutcome() == IndexOutcome.UNRECOGNIZED) {
      throw new IllegalArgumentException(
          "outcome must be INDEXED, FAILED_RETRYABLE," + " FAILED_TERMINAL or SKIPPED");
    }
    if (!r.getNodeId().isEmpty()) {
      try {
        UUID.fromString(r.getNodeId());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "node_id must be a UUID but was '" + r.getNodeId() + "'");
      }
    }
    Set<String> resultIds = new HashSet<>();
    for (int i = 0; i < r.getVectorSetsCount(); i++) {
      VectorSetProvenance v = r.getVectorSets(i);
      requireNotBlank(v.getResultId(), "vector_sets[" + i + "].result_id");
      if (!resultIds.add(v.getResultId())) {
        throw new IllegalArgumentException(
            "vector_sets["
                + i
                + "].result_id '"
                + v.getResultId()
                + "' appears twice; each vector set is listed once");
      }
      if (v.getDimensions() < 0 || v.getVectorCount() < 0) {
        throw new IllegalArgumentException(
            "vector_sets[" + i + "] dimensions and vector_count" + " must not be negative");
      }
    }
    return attemptId;
  }

  private static void requireNotBlank(String value, String field) {
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }

  private boolean upsert(DocumentIndexedEvent r, String attemptId) {
    try {
      return Transactions.inTransaction(
          dataSource,
          c -> {
            boolean applied;
            try (PreparedStatement s = c.prepareStatement(UPSERT)) {
              int i =
                  bindKey(s, 1, r.getAccountId(), r.getDocId(), r.getPlanId(), r.getIndexName());
              s.setString(i++, r.getOutcome().name().replace("INDEX_OUTCOME_", ""));
              s.setString(i++, attemptId);
              nullable(s, i++, r.getGraphId());
              s.setLong(i++, r.getGraphVersion());
              if (r.getNodeId().isEmpty()) {
                s.setNull(i++, Types.OTHER);
              } else {
                s.setObject(i++, UUID.fromString(r.getNodeId()));
              }
              if (r.hasIndexedAt()) {
                s.setTimestamp(i++, java.sql.Timestamp.from(instant(r.getIndexedAt())));
              } else {
                s.setNull(i++, Types.TIMESTAMP_WITH_TIMEZONE);
              }
              nullable(s, i++, r.getErrorMessage());
              s.setTimestamp(i, java.sql.Timestamp.from(clock.instant()));
              try (ResultSet rs = s.executeQuery()) {
                applied = rs.next();
              }
            }
            if (applied) {
              replaceChildren(c, r);
            }
            return applied;
          });
    } catch (SQLException e) {
      throw new LedgerException(
          "applying indexing receipt " + r.getAttemptId() + " for " + r.getDocId(), e);
    }
  }

  /** The provenance of the newest attempt replaces the previous attempt's. */
  private static void replaceChildren(Connection c, DocumentIndexedEvent r) throws SQLException {
    for (String table : List.of("document_index_parsers", "document_index_vector_sets")) {
      try (PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " WHERE " + KEY)) {
        bindKey(s, 1, r.getAccountId(), r.getDocId(), r.getPlanId(), r.getIndexName());
        s.executeUpdate();
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO document_index_parsers (account_id, doc_id, plan_id, index_name, position,"
                + " parser_name, parser_version, node_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int p = 0; p < r.getParserChainCount(); p++) {
        ParserProvenance parser = r.getParserChain(p);
        int i = bindKey(s, 1, r.getAccountId(), r.getDocId(), r.getPlanId(), r.getIndexName());
        s.setInt(i++, p);
        s.setString(i++, parser.getParserName());
        s.setString(i++, parser.getParserVersion());
        s.setString(i, parser.getNodeId());
        s.addBatch();
      }
      s.executeBatch();
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO document_index_vector_sets (account_id, doc_id, plan_id, index_name,"
                + " result_id, chunk_config_id, embedding_config_id, dimensions, vector_count)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (VectorSetProvenance v : r.getVectorSetsList()) {
        int i = bindKey(s, 1, r.getAccountId(), r.getDocId(), r.getPlanId(), r.getIndexName());
        s.setString(i++, v.getResultId());
        s.setString(i++, v.getChunkConfigId());
        s.setString(i++, v.getEmbeddingConfigId());
        s.setInt(i++, v.getDimensions());
        s.setInt(i, v.getVectorCount());
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private static List<ParserProvenance> parsers(
      Connection c, String accountId, String docId, String planId, String indexName)
      throws SQLException {
    List<ParserProvenance> chain = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT parser_name, parser_version, node_id"
                + " FROM document_index_parsers WHERE "
                + KEY
                + " ORDER BY position")) {
      bindKey(s, 1, accountId, docId, planId, indexName);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          chain.add(
              ParserProvenance.newBuilder()
                  .setParserName(rs.getString(1))
                  .setParserVersion(rs.getString(2))
                  .setNodeId(rs.getString(3))
                  .build());
        }
      }
    }
    return chain;
  }

  private static List<VectorSetProvenance> vectorSets(
      Connection c, String accountId, String docId, String planId, String indexName)
      throws SQLException {
    List<VectorSetProvenance> sets = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT result_id, chunk_config_id,"
                + " embedding_config_id, dimensions, vector_count FROM document_index_vector_sets"
                + " WHERE "
                + KEY
                + " ORDER BY result_id")) {
      bindKey(s, 1, accountId, docId, planId, indexName);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          sets.add(
              VectorSetProvenance.newBuilder()
                  .setResultId(rs.getString(1))
                  .setChunkConfigId(rs.getString(2))
                  .setEmbeddingConfigId(rs.getString(3))
                  .setDimensions(rs.getInt(4))
                  .setVectorCount(rs.getInt(5))
                  .build());
        }
      }
    }
    return sets;
  }

  private static int bindKey(
      PreparedStatement s,
      int from,
      String accountId,
      String docId,
      String planId,
      String indexName)
      throws SQLException {
    s.setString(from, accountId);
    s.setString(from + 1, docId);
    s.setString(from + 2, planId);
    s.setString(from + 3, indexName);
    return from + 4;
  }

  private static void nullable(PreparedStatement s, int index, String value) throws SQLException {
    if (value.isEmpty()) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }
}
