package dev.protomolt.repository.postgres;

import com.google.protobuf.util.Timestamps;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.store.SaveCommit;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The {@code pipedocs} ledger on Postgres. Each method runs one statement on an auto-committed
 * connection that is returned before the caller goes back to object storage.
 */
public final class PostgresLedgerStore implements LedgerStore {

  private static final String COLUMNS =
      "node_id, row_kind, account_id, doc_id, graph_id, graph_address_id, cluster_id, drive_name,"
          + " status, manifest, checksum, size_bytes, keep, crawl_id, datasource_id, graph_version,"
          + " created_at, updated_at";

  private static final String UPSERT =
      "INSERT INTO pipedocs ("
          + COLUMNS
          + ")"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (node_id) DO UPDATE SET"
          + " row_kind = EXCLUDED.row_kind, account_id = EXCLUDED.account_id,"
          + " doc_id = EXCLUDED.doc_id, graph_id = EXCLUDED.graph_id,"
          + " graph_address_id = EXCLUDED.graph_address_id, cluster_id = EXCLUDED.cluster_id,"
          + " drive_name = EXCLUDED.drive_name, status = EXCLUDED.status,"
          + " manifest = EXCLUDED.manifest, checksum = EXCLUDED.checksum,"
          + " size_bytes = EXCLUDED.size_bytes, keep = EXCLUDED.keep, crawl_id = EXCLUDED.crawl_id,"
          + " datasource_id = EXCLUDED.datasource_id, graph_version = EXCLUDED.graph_version,"
          + " updated_at = EXCLUDED.updated_at";

  private static final String LOCK =
      "SELECT " + COLUMNS + ", write_token FROM pipedocs WHERE node_id = ? FOR UPDATE";

  private static final String INSERT_NEW =
      "INSERT INTO pipedocs ("
          + COLUMNS
          + ", write_token)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (node_id) DO NOTHING";

  private static final String REPLACE =
      "UPDATE pipedocs SET row_kind = ?, account_id = ?, doc_id = ?, graph_id = ?,"
          + " graph_address_id = ?, cluster_id = ?, drive_name = ?, status = ?,"
          + " manifest = ?::jsonb, checksum = ?, size_bytes = ?, keep = ?, crawl_id = ?,"
          + " datasource_id = ?, graph_version = ?, updated_at = ?, write_token = ?"
          + " WHERE node_id = ?";

  private static final String SUPERSEDED =
      "INSERT INTO pipedoc_superseded (superseded_id, node_id, row_kind, account_id, doc_id,"
          + " graph_id, graph_address_id, drive_name, reason, write_token, superseded_by, checksum,"
          + " size_bytes, manifest, row_created_at, superseded_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)";

  private final DataSource dataSource;

  public PostgresLedgerStore(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  @Override
  public Optional<PipeDocRecord> find(UUID nodeId) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT " + COLUMNS + " FROM pipedocs WHERE node_id = ?")) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(read(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new LedgerException("reading pipedocs row " + nodeId, e);
    }
  }

  @Override
  public void upsert(PipeDocRecord r) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(UPSERT)) {
      bindRow(s, r);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("writing pipedocs row " + r.nodeId(), e);
    }
  }

  /** Binds {@link #COLUMNS} in order and returns the next parameter index. */
  private static int bindRow(PreparedStatement s, PipeDocRecord r) throws SQLException {
    int i = 1;
    s.setObject(i++, r.nodeId());
    s.setString(i++, r.rowKind().name());
    s.setString(i++, r.accountId());
    s.setString(i++, r.docId());
    s.setString(i++, r.graphId());
    s.setString(i++, r.graphAddressId());
    setNullable(s, i++, r.clusterId());
    s.setString(i++, r.driveName());
    s.setString(i++, statusColumn(r.status()));
    s.setString(i++, ManifestJson.toJson(r.manifest()));
    s.setString(i++, r.checksum());
    s.setLong(i++, r.sizeBytes());
    s.setBoolean(i++, r.keep());
    setNullable(s, i++, r.crawlId());
    setNullable(s, i++, r.datasourceId());
    s.setLong(i++, r.graphVersion());
    s.setTimestamp(i++, Timestamp.from(r.createdAt()));
    s.setTimestamp(i++, Timestamp.from(r.updatedAt()));
    return i;
  }

  @Override
  public long nextWriteToken() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("SELECT nextval('pipedoc_write_tokens')");
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new LedgerException("taking a write token", e);
    }
  }

  /**
   * One short transaction, with no object-storage call inside: lock the address's row, then either
   * insert it, replace it, or leave it, and record the state that lost in {@code
   * pipedoc_superseded}. The INSERT or UPDATE of the row is the commit point of the save.
   */
  @Override
  public SaveCommit commit(PipeDocRecord r, long writeToken, Instant at) {
    try {
      return Transactions.inTransaction(
          dataSource,
          c -> {
            // Two passes at most: a first save racing another first save at a new address finds
            // the row taken by the INSERT and then locks the row the other one inserted.
            for (int pass = 0; pass < 2; pass++) {
              Stored existing = lock(c, r.nodeId());
              if (existing == null) {
                if (insert(c, r, writeToken)) {
                  return new SaveCommit(true, r);
                }
                continue;
              }
              if (existing.writeToken() > writeToken) {
                supersede(c, r, writeToken, existing.writeToken(), "LOST_RACE", r.createdAt(), at);
                return new SaveCommit(false, existing.row());
              }
              if (existing.writeToken() == writeToken) {
                // The same save committed before (a retried call): nothing is superseded.
                return new SaveCommit(true, existing.row());
              }
              replace(c, r, writeToken);
              if (existing.row().status() != DocumentStatus.DOCUMENT_STATUS_PURGED) {
                // A PURGED row's objects are already gone; any other state's objects lose their
                // owner now and are kept only for the grace period.
                supersede(
                    c,
                    existing.row(),
                    existing.writeToken(),
                    writeToken,
                    "REPLACED",
                    existing.row().createdAt(),
                    at);
              }
              return new SaveCommit(true, withCreatedAt(r, existing.row().createdAt()));
            }
            throw new SQLException("pipedocs row " + r.nodeId() + " neither inserted nor found");
          });
    } catch (SQLException e) {
      throw new LedgerException("committing pipedocs row " + r.nodeId(), e);
    }
  }

  private static Stored lock(Connection c, UUID nodeId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(LOCK)) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? new Stored(read(rs), rs.getLong("write_token")) : null;
      }
    }
  }

  private static boolean insert(Connection c, PipeDocRecord r, long writeToken)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(INSERT_NEW)) {
      int i = bindRow(s, r);
      s.setLong(i, writeToken);
      return s.executeUpdate() == 1;
    }
  }

  private static void replace(Connection c, PipeDocRecord r, long writeToken) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(REPLACE)) {
      int i = 1;
      s.setString(i++, r.rowKind().name());
      s.setString(i++, r.accountId());
      s.setString(i++, r.docId());
      s.setString(i++, r.graphId());
      s.setString(i++, r.graphAddressId());
      setNullable(s, i++, r.clusterId());
      s.setString(i++, r.driveName());
      s.setString(i++, statusColumn(r.status()));
      s.setString(i++, ManifestJson.toJson(r.manifest()));
      s.setString(i++, r.checksum());
      s.setLong(i++, r.sizeBytes());
      s.setBoolean(i++, r.keep());
      setNullable(s, i++, r.crawlId());
      setNullable(s, i++, r.datasourceId());
      s.setLong(i++, r.graphVersion());
      s.setTimestamp(i++, Timestamp.from(r.updatedAt()));
      s.setLong(i++, writeToken);
      s.setObject(i, r.nodeId());
      s.executeUpdate();
    }
  }

  /**
   * Records {@code lost} (its manifest naming the objects that lost their owner) in {@code
   * pipedoc_superseded}, on the caller's transaction: for the store's other writers of a manifest
   * (settlement), which must supersede objects exactly as a save does.
   */
  public static void recordSuperseded(
      Connection c, PipeDocRecord lost, long lostToken, long byToken, String reason, Instant at)
      throws SQLException {
    supersede(c, lost, lostToken, byToken, reason, lost.createdAt(), at);
  }

  private static void supersede(
      Connection c,
      PipeDocRecord lost,
      long lostToken,
      long byToken,
      String reason,
      Instant rowCreatedAt,
      Instant at)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(SUPERSEDED)) {
      int i = 1;
      s.setObject(i++, UUID.randomUUID());
      s.setObject(i++, lost.nodeId());
      s.setString(i++, lost.rowKind().name());
      s.setString(i++, lost.accountId());
      s.setString(i++, lost.docId());
      s.setString(i++, lost.graphId());
      s.setString(i++, lost.graphAddressId());
      s.setString(i++, lost.driveName());
      s.setString(i++, reason);
      s.setLong(i++, lostToken);
      s.setLong(i++, byToken);
      s.setString(i++, lost.checksum());
      s.setLong(i++, lost.sizeBytes());
      s.setString(i++, ManifestJson.toJson(lost.manifest()));
      s.setTimestamp(i++, Timestamp.from(rowCreatedAt));
      s.setTimestamp(i, Timestamp.from(at));
      s.executeUpdate();
    }
  }

  private static PipeDocRecord withCreatedAt(PipeDocRecord r, Instant createdAt) {
    return new PipeDocRecord(
        r.nodeId(),
        r.rowKind(),
        r.accountId(),
        r.docId(),
        r.graphId(),
        r.graphAddressId(),
        r.clusterId(),
        r.driveName(),
        r.status(),
        r.manifest(),
        r.checksum(),
        r.sizeBytes(),
        r.keep(),
        r.crawlId(),
        r.datasourceId(),
        r.graphVersion(),
        createdAt,
        r.updatedAt());
  }

  private record Stored(PipeDocRecord row, long writeToken) {}

  @Override
  public boolean tombstone(UUID nodeId, Instant at) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE pipedocs SET status = 'PENDING_PURGE',"
                    + " updated_at = ? WHERE node_id = ? AND status = 'ACTIVE'")) {
      s.setTimestamp(1, Timestamp.from(at));
      s.setObject(2, nodeId);
      return s.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new LedgerException("tombstoning pipedocs row " + nodeId, e);
    }
  }

  @Override
  public boolean tombstoneCacheCopy(
      UUID nodeId,
      Instant at,
      String manifestChecksum,
      com.google.protobuf.Timestamp manifestUpdatedAt) {
    // The manifest column is printed by ManifestJson, whose Timestamp form is Timestamps.toString,
    // so the text comparison is exact; both conditions sit in the UPDATE so the decision and the
    // delete cannot be split by a concurrent save of a newer copy.
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE pipedocs SET status = 'PENDING_PURGE',"
                    + " updated_at = ? WHERE node_id = ? AND status = 'ACTIVE' AND keep = FALSE"
                    + " AND checksum = ? AND manifest->>'updated_at' = ?")) {
      s.setTimestamp(1, Timestamp.from(at));
      s.setObject(2, nodeId);
      s.setString(3, manifestChecksum);
      s.setString(4, Timestamps.toString(manifestUpdatedAt));
      return s.executeUpdate() == 1;
    } catch (SQLException | IllegalArgumentException e) {
      throw new LedgerException("tombstoning the CACHE copy " + nodeId, e);
    }
  }

  private static PipeDocRecord read(ResultSet rs) throws SQLException {
    PipeDocManifest manifest;
    try {
      manifest = ManifestJson.fromJson(rs.getString("manifest"));
    } catch (IllegalArgumentException e) {
      throw new SQLException(
          "pipedocs.manifest of " + rs.getObject("node_id") + " is not a PipeDocManifest", e);
    }
    return new PipeDocRecord(
        rs.getObject("node_id", UUID.class),
        RowKind.valueOf(rs.getString("row_kind")),
        rs.getString("account_id"),
        rs.getString("doc_id"),
        rs.getString("graph_id"),
        rs.getString("graph_address_id"),
        rs.getString("cluster_id"),
        rs.getString("drive_name"),
        DocumentStatus.valueOf("DOCUMENT_STATUS_" + rs.getString("status")),
        manifest,
        rs.getString("checksum"),
        rs.getLong("size_bytes"),
        rs.getBoolean("keep"),
        rs.getString("crawl_id"),
        rs.getString("datasource_id"),
        rs.getLong("graph_version"),
        rs.getTimestamp("created_at").toInstant(),
        rs.getTimestamp("updated_at").toInstant());
  }

  private static String statusColumn(DocumentStatus status) {
    return switch (status) {
      case DOCUMENT_STATUS_ACTIVE -> "ACTIVE";
      case DOCUMENT_STATUS_PENDING_PURGE -> "PENDING_PURGE";
      case DOCUMENT_STATUS_PURGED -> "PURGED";
      case DOCUMENT_STATUS_UNSPECIFIED, UNRECOGNIZED ->
          throw new IllegalArgumentException("status must be ACTIVE, PENDING_PURGE or PURGED");
    };
  }

  private static void setNullable(PreparedStatement s, int index, String value)
      throws SQLException {
    if (value == null || value.isEmpty()) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }
}
