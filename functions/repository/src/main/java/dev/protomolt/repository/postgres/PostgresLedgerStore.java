package dev.protomolt.repository.postgres;

import com.google.protobuf.util.Timestamps;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.PipeDocRecord;
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
      s.setTimestamp(i, Timestamp.from(r.updatedAt()));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("writing pipedocs row " + r.nodeId(), e);
    }
  }

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
