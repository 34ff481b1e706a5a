package dev.protomolt.repository.replay;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.replay.ReplayVerdicts;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.IndexingOutcomeFilter;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.DocumentReferences;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * {@code StreamDocumentsForReplay}: the live stored states that match every selector of a request
 * (they are ANDed), each with a {@link ReplayVerdicts server-side eligibility verdict} computed
 * from its manifest. An account alone never selects anything: replaying a whole tenant by accident
 * is refused (decision 0903). No object is read.
 */
public final class ReplayQuery {

  /** Rows fetched per round trip when the request does not say. */
  public static final int DEFAULT_PAGE_SIZE = 500;

  public static final int MAX_PAGE_SIZE = 1000;

  private static final String INDEX_STATE =
      " FROM document_index_state s" + " WHERE s.account_id = p.account_id AND s.doc_id = p.doc_id";

  private final DataSource dataSource;

  public ReplayQuery(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /**
   * Sends every candidate to {@code sink}, oldest change first.
   *
   * @throws PipeDocStoreException.InvalidRequest naming the field and the rule
   */
  public void stream(StreamDocumentsForReplayRequest request, Consumer<ReplayCandidate> sink) {
    Set<PipeDocPart> required = validate(request);
    List<Object> args = new ArrayList<>();
    StringBuilder sql = selection(request, args);
    sql.append(" ORDER BY p.updated_at, p.node_id");
    int pageSize = request.getPageSize() == 0 ? DEFAULT_PAGE_SIZE : request.getPageSize();
    try {
      // PostgreSQL streams with a cursor only inside a transaction; this one only reads.
      Transactions.inTransaction(
          dataSource,
          c -> {
            try (PreparedStatement s = c.prepareStatement(sql.toString())) {
              s.setFetchSize(pageSize);
              bind(c, s, args);
              try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                  sink.accept(candidate(rs, required));
                }
              }
            }
            return null;
          });
    } catch (SQLException e) {
      throw new LedgerException(
          "querying replay candidates of account " + request.getAccountId(), e);
    }
  }

  /** Where a keyset page starts: strictly after this change instant and state id. */
  public record Cursor(Instant updatedAt, UUID nodeId) {

    /** The cursor before every candidate. */
    public static final Cursor START = new Cursor(Instant.EPOCH, new UUID(0, 0));

    public Cursor {
      Objects.requireNonNull(updatedAt, "updatedAt");
      Objects.requireNonNull(nodeId, "nodeId");
    }

    /** {@code <epoch micros>/<node id>}: a short text a state machine can carry and log. */
    public String text() {
      long micros = updatedAt.getEpochSecond() * 1_000_000L + updatedAt.getNano() / 1_000;
      return micros + "/" + nodeId;
    }

    /**
     * @throws PipeDocStoreException.InvalidRequest naming {@code field} when the text is not one
     *     {@link #text()} wrote
     */
    public static Cursor parse(String field, String text) {
      int slash = text.indexOf('/');
      try {
        long micros = Long.parseLong(text.substring(0, slash));
        return new Cursor(
            Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L))
                .plusNanos(Math.floorMod(micros, 1_000_000L) * 1_000L),
            UUID.fromString(text.substring(slash + 1)));
      } catch (RuntimeException e) {
        throw new PipeDocStoreException.InvalidRequest(
            field,
            "must be a cursor '<epoch micros>/<uuid>' a replay page wrote, was '" + text + "'");
      }
    }
  }

  /**
   * One keyset page: its candidates, oldest change first, the cursor after each of them ({@code
   * cursors}, in the same order), and the cursor after the last.
   */
  public record Page(
      List<ReplayCandidate> candidates, List<Cursor> cursors, Cursor next, boolean last) {
    public Page {
      candidates = List.copyOf(candidates);
      cursors = List.copyOf(cursors);
      if (cursors.size() != candidates.size()) {
        throw new IllegalArgumentException(
            "a page has one cursor per candidate: " + cursors.size() + " for " + candidates.size());
      }
    }
  }

  /**
   * At most {@code limit} candidates after {@code after}, in the order {@link #stream} sends them.
   * Each page is one short query: no cursor is held between pages, so a state machine can read
   * the next page in another invocation (decision 1700).
   *
   * @throws PipeDocStoreException.InvalidRequest naming the field and the rule
   */
  public Page page(StreamDocumentsForReplayRequest request, Cursor after, int limit) {
    Set<PipeDocPart> required = validate(request);
    if (limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new PipeDocStoreException.InvalidRequest(
          "page_size", "must be between 1 and " + MAX_PAGE_SIZE + ", was " + limit);
    }
    List<Object> args = new ArrayList<>();
    StringBuilder sql = selection(request, args);
    sql.append(" AND (p.updated_at, p.node_id) > (?, ?) ORDER BY p.updated_at, p.node_id LIMIT ?");
    args.add(java.sql.Timestamp.from(after.updatedAt()));
    args.add(after.nodeId());
    // One more than asked says whether another page follows without a second query.
    args.add(limit + 1);
    try (var c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.toString())) {
      bind(c, s, args);
      List<ReplayCandidate> out = new ArrayList<>();
      List<Cursor> cursors = new ArrayList<>();
      Cursor next = after;
      boolean more = false;
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (out.size() == limit) {
            more = true;
            break;
          }
          out.add(candidate(rs, required));
          next =
              new Cursor(
                  rs.getTimestamp("updated_at").toInstant(), rs.getObject("node_id", UUID.class));
          cursors.add(next);
        }
      }
      return new Page(out, cursors, next, !more);
    } catch (SQLException e) {
      throw new LedgerException("reading a replay page of account " + request.getAccountId(), e);
    }
  }

  /** How many candidates the request selects now (a replay's progress total). */
  public long count(StreamDocumentsForReplayRequest request) {
    validate(request);
    List<Object> args = new ArrayList<>();
    StringBuilder sql = selection(request, args);
    String counted = "SELECT count(*) FROM (" + sql + ") AS candidates";
    try (var c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(counted)) {
      bind(c, s, args);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new LedgerException(
          "counting replay candidates of account " + request.getAccountId(), e);
    }
  }

  /** The SELECT and WHERE of every selector; {@code args} receives the bound values in order. */
  private static StringBuilder selection(
      StreamDocumentsForReplayRequest request, List<Object> args) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT p.node_id, p.account_id, p.doc_id, p.graph_id, p.graph_address_id, p.keep,"
                + " p.manifest, p.crawl_id, p.datasource_id, p.updated_at FROM pipedocs p WHERE"
                + " p.account_id = ? AND p.status = 'ACTIVE'");
    args.add(request.getAccountId());
    if (request.getGraphId().isEmpty()) {
      // Without a target the replay starts from the intake copy, where the source lives.
      sql.append(" AND p.row_kind = 'INTAKE'");
    } else {
      sql.append(" AND p.graph_id = ? AND p.graph_address_id = ?");
      args.add(request.getGraphId());
      args.add(request.getGraphAddressId());
    }
    if (request.getDocIdsCount() > 0) {
      sql.append(" AND p.doc_id = ANY (?)");
      args.add(request.getDocIdsList().toArray(String[]::new));
    }
    if (!request.getCrawlId().isEmpty()) {
      sql.append(" AND p.crawl_id = ?");
      args.add(request.getCrawlId());
    }
    if (!request.getDatasourceId().isEmpty()) {
      sql.append(" AND p.datasource_id = ?");
      args.add(request.getDatasourceId());
    }
    if (request.hasModifiedAfter()) {
      sql.append(" AND p.updated_at > ?");
      args.add(java.sql.Timestamp.from(instant(request.getModifiedAfter())));
    }
    if (request.hasModifiedBefore()) {
      sql.append(" AND p.updated_at < ?");
      args.add(java.sql.Timestamp.from(instant(request.getModifiedBefore())));
    }
    switch (request.getIndexingOutcome()) {
      case INDEXING_OUTCOME_FILTER_NEVER_INDEXED ->
          sql.append(" AND NOT EXISTS (SELECT 1").append(INDEX_STATE).append(")");
      case INDEXING_OUTCOME_FILTER_FAILED ->
          sql.append(" AND EXISTS (SELECT 1")
              .append(INDEX_STATE)
              .append(" AND s.outcome IN ('FAILED_RETRYABLE', 'FAILED_TERMINAL'))");
      case INDEXING_OUTCOME_FILTER_INDEXED ->
          sql.append(" AND EXISTS (SELECT 1")
              .append(INDEX_STATE)
              .append(" AND s.outcome = 'INDEXED')");
      case INDEXING_OUTCOME_FILTER_UNSPECIFIED, UNRECOGNIZED -> {}
    }
    return sql;
  }

  private static void bind(java.sql.Connection c, PreparedStatement s, List<Object> args)
      throws SQLException {
    for (int i = 0; i < args.size(); i++) {
      Object arg = args.get(i);
      if (arg instanceof String[] array) {
        s.setArray(i + 1, c.createArrayOf("text", array));
      } else {
        s.setObject(i + 1, arg);
      }
    }
  }

  private static ReplayCandidate candidate(ResultSet rs, Set<PipeDocPart> required)
      throws SQLException {
    UUID nodeId = rs.getObject("node_id", UUID.class);
    var manifest = ManifestJson.fromJson(rs.getString("manifest"));
    ReplayVerdicts.Verdict verdict = ReplayVerdicts.of(manifest, required);
    NodeCoordinates coordinates =
        new NodeCoordinates(
            rs.getString("doc_id"),
            rs.getString("graph_address_id"),
            rs.getString("account_id"),
            rs.getString("graph_id"));
    Instant updated = rs.getTimestamp("updated_at").toInstant();
    ReplayCandidate.Builder b =
        ReplayCandidate.newBuilder()
            .setDocumentRef(DocumentReferences.of(coordinates, nodeId, rs.getBoolean("keep")))
            .setEligibility(verdict.eligibility())
            .addAllMissingParts(verdict.missingParts())
            .setReason(verdict.reason())
            .setUpdatedAt(
                Timestamp.newBuilder()
                    .setSeconds(updated.getEpochSecond())
                    .setNanos(updated.getNano()));
    if (rs.getString("crawl_id") != null) {
      b.setCrawlId(rs.getString("crawl_id"));
    }
    if (rs.getString("datasource_id") != null) {
      b.setDatasourceId(rs.getString("datasource_id"));
    }
    return b.build();
  }

  /** The parts the replay needs; refuses every malformed field naming it. */
  static Set<PipeDocPart> validate(StreamDocumentsForReplayRequest r) {
    if (r.getAccountId().isBlank()) {
      throw new PipeDocStoreException.InvalidRequest("account_id", "required");
    }
    for (int i = 0; i < r.getDocIdsCount(); i++) {
      if (r.getDocIds(i).isBlank()) {
        throw new PipeDocStoreException.InvalidRequest("doc_ids[" + i + "]", "must not be blank");
      }
    }
    if (r.getIndexingOutcome() == IndexingOutcomeFilter.UNRECOGNIZED) {
      throw new PipeDocStoreException.InvalidRequest(
          "indexing_outcome", "must be NEVER_INDEXED, FAILED or INDEXED (or unset)");
    }
    boolean narrowed =
        r.getDocIdsCount() > 0
            || !r.getCrawlId().isBlank()
            || !r.getDatasourceId().isBlank()
            || r.hasModifiedAfter()
            || r.hasModifiedBefore()
            || r.getIndexingOutcome() != IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_UNSPECIFIED;
    if (!narrowed) {
      throw new PipeDocStoreException.InvalidRequest(
          "account_id",
          "a bare account_id selects a whole tenant and is refused; add at least one of doc_ids,"
              + " crawl_id, datasource_id, modified_after, modified_before or indexing_outcome");
    }
    if (r.hasModifiedAfter()
        && r.hasModifiedBefore()
        && !instant(r.getModifiedAfter()).isBefore(instant(r.getModifiedBefore()))) {
      throw new PipeDocStoreException.InvalidRequest(
          "modified_before", "must be later than modified_after");
    }
    if (r.getGraphId().isBlank() != r.getGraphAddressId().isBlank()) {
      String missing = r.getGraphId().isBlank() ? "graph_id" : "graph_address_id";
      throw new PipeDocStoreException.InvalidRequest(
          missing,
          "graph_id and graph_address_id target a node's copy together; give both or neither");
    }
    if (r.getPageSize() < 0 || r.getPageSize() > MAX_PAGE_SIZE) {
      throw new PipeDocStoreException.InvalidRequest(
          "page_size",
          "must be between 0 (the default, " + DEFAULT_PAGE_SIZE + ") and " + MAX_PAGE_SIZE);
    }
    Set<PipeDocPart> required = EnumSet.noneOf(PipeDocPart.class);
    for (int i = 0; i < r.getRequiredPartsCount(); i++) {
      PipeDocPart part = r.getRequiredParts(i);
      if (part == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || part == PipeDocPart.UNRECOGNIZED) {
        throw new PipeDocStoreException.InvalidRequest(
            "required_parts[" + i + "]", "must be CORE, BLOBS, CHUNKS or PARSED");
      }
      required.add(part);
    }
    return required;
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }
}
