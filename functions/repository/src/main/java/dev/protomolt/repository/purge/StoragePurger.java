package dev.protomolt.repository.purge;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Drains a batch of {@link StoragePurgeEvent}s (one poll of the storage-purge topic): locks the
 * batch's rows, deletes the objects of those still PENDING_PURGE with {@code DeleteObjects}
 * grouped by bucket, and finalizes each row PURGED together with its {@code pipedoc_purges} proof
 * row in the same transaction.
 *
 * <p>This is the one place a database transaction spans object-storage calls (decision 0900): the
 * row lock is what guarantees that a row revived between its tombstone and its purge is not
 * purged, so it must be held from the re-check until the row is finalized.
 */
public final class StoragePurger {

  private static final String LOCK =
      "SELECT node_id, row_kind, account_id, doc_id, graph_id,"
          + " graph_address_id, drive_name, status, manifest, checksum, size_bytes, created_at,"
          + " updated_at FROM pipedocs WHERE node_id = ANY (?) ORDER BY node_id FOR UPDATE";

  private static final String FINALIZE =
      "UPDATE pipedocs SET status = 'PURGED', updated_at = ?"
          + " WHERE node_id = ? AND status = 'PENDING_PURGE'";

  private static final String PROOF =
      "INSERT INTO pipedoc_purges (purge_id, purge_event_id, node_id, row_kind, account_id, doc_id,"
          + " graph_id, graph_address_id, drive_name, bucket, reason, checksum, size_bytes,"
          + " manifest_summary, row_created_at, tombstoned_at, purged_at) VALUES (?, ?, ?, ?, ?, ?,"
          + " ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)";

  private final DataSource dataSource;
  private final BlobStore blobs;
  private final DriveDirectory drives;
  private final Clock clock;

  public StoragePurger(DataSource dataSource, BlobStore blobs, DriveDirectory drives, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Purges one batch. A malformed event is reported, never allowed to stop the others. */
  public PurgeReport purge(List<StoragePurgeEvent> batch) {
    List<String> rejected = new ArrayList<>();
    // One event per row: a row announced twice in a poll is purged once.
    Map<UUID, StoragePurgeEvent> byNode = new LinkedHashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      StoragePurgeEvent event = batch.get(i);
      String problem = problem(event);
      if (problem != null) {
        rejected.add(
            "event " + i + " (purge_event_id '" + event.getPurgeEventId() + "'): " + problem);
        continue;
      }
      byNode.putIfAbsent(UUID.fromString(event.getNodeId()), event);
    }
    List<UUID> purged = new ArrayList<>();
    List<UUID> voided = new ArrayList<>();
    List<UUID> failed = new ArrayList<>();
    if (byNode.isEmpty()) {
      return new PurgeReport(purged, voided, failed, rejected);
    }
    try {
      Transactions.inTransaction(
          dataSource,
          c -> {
            Map<UUID, LockedRow> rows = lock(c, byNode.keySet());
            List<ObjectAddress> doomed = new ArrayList<>();
            Map<UUID, List<ObjectAddress>> addressesByNode = new LinkedHashMap<>();
            Map<UUID, Drive> driveByNode = new LinkedHashMap<>();
            for (UUID nodeId : byNode.keySet()) {
              LockedRow row = rows.get(nodeId);
              if (row == null || !row.status().equals("PENDING_PURGE")) {
                // Revived by a save, already purged, or never stored: the event is void.
                voided.add(nodeId);
                continue;
              }
              Drive drive =
                  drives
                      .findByName(row.driveName())
                      .orElseThrow(
                          () ->
                              new IllegalStateException(
                                  "pipedocs row "
                                      + nodeId
                                      + " names drive "
                                      + row.driveName()
                                      + " which does not exist"));
              List<ObjectAddress> addresses = new ArrayList<>();
              // The locked row's manifest is authoritative; the event's key list may predate it.
              for (PartManifestEntry e : row.manifest().getEntriesList()) {
                // DELETED entries can still name an object (a settled source's husk): it goes too.
                if (!e.getObjectKey().isBlank()) {
                  addresses.add(new ObjectAddress(drive, e.getObjectKey()));
                }
              }
              addressesByNode.put(nodeId, addresses);
              driveByNode.put(nodeId, drive);
              doomed.addAll(addresses);
            }
            Set<ObjectAddress> notDeleted =
                new HashSet<>(doomed.isEmpty() ? List.of() : blobs.deleteAll(doomed));
            Instant now = clock.instant();
            for (Map.Entry<UUID, List<ObjectAddress>> e : addressesByNode.entrySet()) {
              UUID nodeId = e.getKey();
              if (e.getValue().stream().anyMatch(notDeleted::contains)) {
                failed.add(nodeId);
                continue;
              }
              finalizeRow(c, rows.get(nodeId), byNode.get(nodeId), driveByNode.get(nodeId), now);
              purged.add(nodeId);
            }
            return null;
          });
    } catch (SQLException e) {
      throw new LedgerException("purging " + byNode.size() + " rows", e);
    }
    return new PurgeReport(purged, voided, failed, rejected);
  }

  private static String problem(StoragePurgeEvent event) {
    if (event.getPurgeEventId().isBlank()) {
      return "purge_event_id must not be blank";
    }
    if (event.getNodeId().isBlank()) {
      return "node_id must not be blank";
    }
    try {
      UUID.fromString(event.getNodeId());
    } catch (IllegalArgumentException e) {
      return "node_id must be a UUID but was '" + event.getNodeId() + "'";
    }
    return null;
  }

  private static Map<UUID, LockedRow> lock(Connection c, Set<UUID> nodeIds) throws SQLException {
    Map<UUID, LockedRow> rows = new LinkedHashMap<>();
    try (PreparedStatement s = c.prepareStatement(LOCK)) {
      Array ids = c.createArrayOf("uuid", nodeIds.toArray());
      s.setArray(1, ids);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          UUID id = rs.getObject("node_id", UUID.class);
          rows.put(
              id,
              new LockedRow(
                  id,
                  rs.getString("row_kind"),
                  rs.getString("account_id"),
                  rs.getString("doc_id"),
                  rs.getString("graph_id"),
                  rs.getString("graph_address_id"),
                  rs.getString("drive_name"),
                  rs.getString("status"),
                  ManifestJson.fromJson(rs.getString("manifest")),
                  rs.getString("checksum"),
                  rs.getLong("size_bytes"),
                  rs.getTimestamp("created_at").toInstant(),
                  rs.getTimestamp("updated_at").toInstant()));
        }
      }
    }
    return rows;
  }

  private static void finalizeRow(
      Connection c, LockedRow row, StoragePurgeEvent event, Drive drive, Instant now)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(FINALIZE)) {
      s.setTimestamp(1, java.sql.Timestamp.from(now));
      s.setObject(2, row.nodeId());
      if (s.executeUpdate() != 1) {
        throw new IllegalStateException("locked row " + row.nodeId() + " left PENDING_PURGE");
      }
    }
    try (PreparedStatement s = c.prepareStatement(PROOF)) {
      int i = 1;
      s.setObject(i++, UUID.randomUUID());
      s.setString(i++, event.getPurgeEventId());
      s.setObject(i++, row.nodeId());
      s.setString(i++, row.rowKind());
      s.setString(i++, row.accountId());
      s.setString(i++, row.docId());
      s.setString(i++, row.graphId());
      s.setString(i++, row.graphAddressId());
      s.setString(i++, row.driveName());
      s.setString(i++, drive.bucket());
      s.setString(i++, event.getReason().isBlank() ? "UNSPECIFIED" : event.getReason());
      s.setString(i++, row.checksum());
      s.setLong(i++, row.sizeBytes());
      s.setString(i++, ManifestJson.toJson(summary(row.manifest())));
      s.setTimestamp(i++, java.sql.Timestamp.from(row.createdAt()));
      // The tombstone's own time is the row's last update; the event's copy is used only when
      // it carries one, since both were taken from the same clock reading.
      s.setTimestamp(
          i++,
          java.sql.Timestamp.from(
              event.hasTombstonedAt() ? instant(event.getTombstonedAt()) : row.updatedAt()));
      s.setTimestamp(i, java.sql.Timestamp.from(now));
      s.executeUpdate();
    }
  }

  /**
   * The manifest as proof: what each object was (part, chunk set, key, hash, size, state), without
   * who wrote it, which belongs to the live row and not to the audit trail.
   */
  static PipeDocManifest summary(PipeDocManifest manifest) {
    PipeDocManifest.Builder b = manifest.toBuilder().clearUpdatedAt();
    for (int i = 0; i < b.getEntriesCount(); i++) {
      b.setEntries(i, b.getEntries(i).toBuilder().clearWrittenBy().clearUpdatedAt());
    }
    return b.build();
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  private record LockedRow(
      UUID nodeId,
      String rowKind,
      String accountId,
      String docId,
      String graphId,
      String graphAddressId,
      String driveName,
      String status,
      PipeDocManifest manifest,
      String checksum,
      long sizeBytes,
      Instant createdAt,
      Instant updatedAt) {}
}
