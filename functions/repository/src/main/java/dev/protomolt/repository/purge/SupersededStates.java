package dev.protomolt.repository.purge;

import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Reclaims the stored states that lost their address to a newer save ({@code pipedoc_superseded},
 * written by the ledger's commit): once a state has been superseded for longer than the grace
 * period its objects are deleted, a {@code pipedoc_purges} proof row is written and the entry is
 * removed, all in one transaction per batch (decision 1601).
 *
 * <p>The grace period is what keeps in-flight readers safe: a reader follows the manifest it read,
 * and the objects that manifest names stay in place for the whole period after another save
 * replaced it. A key that a live row still names is never deleted, whatever the entry says.
 */
public final class SupersededStates {

  /** Entries handled per transaction. */
  static final int BATCH = 200;

  private static final String DUE =
      "SELECT superseded_id, node_id, row_kind, account_id, doc_id, graph_id, graph_address_id,"
          + " drive_name, reason, write_token, superseded_by, checksum, size_bytes, manifest,"
          + " row_created_at, superseded_at FROM pipedoc_superseded"
          + " WHERE drive_name = ? AND superseded_at <= ? ORDER BY superseded_at LIMIT ?"
          + " FOR UPDATE SKIP LOCKED";

  private static final String LIVE_KEYS =
      "SELECT manifest FROM pipedocs WHERE node_id = ANY (?)"
          + " AND status IN ('ACTIVE', 'PENDING_PURGE')";

  private static final String PROOF =
      "INSERT INTO pipedoc_purges (purge_id, purge_event_id, node_id, row_kind, account_id, doc_id,"
          + " graph_id, graph_address_id, drive_name, bucket, reason, checksum, size_bytes,"
          + " manifest_summary, row_created_at, tombstoned_at, purged_at) VALUES (?, ?, ?, ?, ?, ?,"
          + " ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)";

  private static final String FORGET = "DELETE FROM pipedoc_superseded WHERE superseded_id = ?";

  private final DataSource dataSource;
  private final BlobStore blobs;
  private final Clock clock;

  public SupersededStates(DataSource dataSource, BlobStore blobs, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * What one run reclaimed.
   *
   * @param states superseded states whose objects are gone and whose proof is written
   * @param objectsDeleted objects deleted for them
   * @param notDeleted keys the object store refused to delete (their states are retried next run)
   */
  public record Reclaimed(long states, long objectsDeleted, List<String> notDeleted) {
    public Reclaimed {
      notDeleted = List.copyOf(notDeleted);
    }
  }

  /** Reclaims every state of {@code drive} superseded at or before {@code cutoff}. */
  public Reclaimed reclaimDue(Drive drive, Instant cutoff) {
    long states = 0;
    long deleted = 0;
    List<String> notDeleted = new ArrayList<>();
    while (true) {
      Batch batch = reclaimBatch(drive, cutoff);
      states += batch.states();
      deleted += batch.objectsDeleted();
      notDeleted.addAll(batch.notDeleted());
      // A batch that reclaimed less than it locked hit refusals; the next run retries those.
      if (batch.locked() < BATCH || batch.states() < batch.locked()) {
        return new Reclaimed(states, deleted, notDeleted);
      }
    }
  }

  private Batch reclaimBatch(Drive drive, Instant cutoff) {
    try {
      return Transactions.inTransaction(
          dataSource,
          c -> {
            List<Entry> due = due(c, drive, cutoff);
            if (due.isEmpty()) {
              return new Batch(0, 0, 0, List.of());
            }
            Set<String> live = liveKeys(c, due);
            Map<Entry, List<ObjectAddress>> doomedByEntry = new LinkedHashMap<>();
            List<ObjectAddress> doomed = new ArrayList<>();
            for (Entry e : due) {
              List<ObjectAddress> addresses = new ArrayList<>();
              for (PartManifestEntry part : e.manifest().getEntriesList()) {
                String key = part.getObjectKey();
                // A key some live row names is that row's object: it is never this entry's to
                // delete (a state stored before write segments shares keys with its rewrites).
                if (!key.isBlank() && !live.contains(key)) {
                  addresses.add(new ObjectAddress(drive, key));
                }
              }
              doomedByEntry.put(e, addresses);
              doomed.addAll(addresses);
            }
            Set<ObjectAddress> refused =
                new HashSet<>(doomed.isEmpty() ? List.of() : blobs.deleteAll(doomed));
            Instant now = clock.instant();
            long states = 0;
            long objects = 0;
            List<String> notDeleted = new ArrayList<>();
            for (Map.Entry<Entry, List<ObjectAddress>> d : doomedByEntry.entrySet()) {
              List<ObjectAddress> left = d.getValue().stream().filter(refused::contains).toList();
              if (!left.isEmpty()) {
                left.forEach(a -> notDeleted.add(a.key()));
                continue;
              }
              prove(c, d.getKey(), drive, now);
              states++;
              objects += d.getValue().size();
            }
            return new Batch(due.size(), states, objects, notDeleted);
          });
    } catch (SQLException e) {
      throw new LedgerException("reclaiming superseded states of drive " + drive.name(), e);
    }
  }

  private static List<Entry> due(Connection c, Drive drive, Instant cutoff) throws SQLException {
    List<Entry> due = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(DUE)) {
      s.setString(1, drive.name());
      s.setTimestamp(2, Timestamp.from(cutoff));
      s.setInt(3, BATCH);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          due.add(
              new Entry(
                  rs.getObject("superseded_id", UUID.class),
                  rs.getObject("node_id", UUID.class),
                  rs.getString("row_kind"),
                  rs.getString("account_id"),
                  rs.getString("doc_id"),
                  rs.getString("graph_id"),
                  rs.getString("graph_address_id"),
                  rs.getString("reason"),
                  rs.getLong("write_token"),
                  rs.getLong("superseded_by"),
                  rs.getString("checksum"),
                  rs.getLong("size_bytes"),
                  ManifestJson.fromJson(rs.getString("manifest")),
                  rs.getTimestamp("row_created_at").toInstant(),
                  rs.getTimestamp("superseded_at").toInstant()));
        }
      }
    }
    return due;
  }

  private static Set<String> liveKeys(Connection c, List<Entry> due) throws SQLException {
    Set<UUID> nodes = new LinkedHashSet<>();
    due.forEach(e -> nodes.add(e.nodeId()));
    Set<String> keys = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement(LIVE_KEYS)) {
      s.setArray(1, c.createArrayOf("uuid", nodes.toArray()));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          for (PartManifestEntry e : ManifestJson.fromJson(rs.getString(1)).getEntriesList()) {
            if (!e.getObjectKey().isBlank()) {
              keys.add(e.getObjectKey());
            }
          }
        }
      }
    }
    return keys;
  }

  private static void prove(Connection c, Entry e, Drive drive, Instant now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(PROOF)) {
      int i = 1;
      s.setObject(i++, UUID.randomUUID());
      s.setString(i++, "superseded:" + e.supersededId());
      s.setObject(i++, e.nodeId());
      s.setString(i++, e.rowKind());
      s.setString(i++, e.accountId());
      s.setString(i++, e.docId());
      s.setString(i++, e.graphId());
      s.setString(i++, e.graphAddressId());
      s.setString(i++, drive.name());
      s.setString(i++, drive.bucket());
      s.setString(
          i++,
          "SUPERSEDED: "
              + e.reason()
              + " (write "
              + e.writeToken()
              + " superseded by write "
              + e.supersededBy()
              + ")");
      s.setString(i++, e.checksum());
      s.setLong(i++, e.sizeBytes());
      s.setString(i++, ManifestJson.toJson(StoragePurger.summary(e.manifest())));
      s.setTimestamp(i++, Timestamp.from(e.rowCreatedAt()));
      // The moment the state lost its address plays the part of a tombstone in the proof.
      s.setTimestamp(i++, Timestamp.from(e.supersededAt()));
      s.setTimestamp(i, Timestamp.from(now));
      s.executeUpdate();
    }
    try (PreparedStatement s = c.prepareStatement(FORGET)) {
      s.setObject(1, e.supersededId());
      s.executeUpdate();
    }
  }

  private record Batch(int locked, long states, long objectsDeleted, List<String> notDeleted) {}

  private record Entry(
      UUID supersededId,
      UUID nodeId,
      String rowKind,
      String accountId,
      String docId,
      String graphId,
      String graphAddressId,
      String reason,
      long writeToken,
      long supersededBy,
      String checksum,
      long sizeBytes,
      PipeDocManifest manifest,
      Instant rowCreatedAt,
      Instant supersededAt) {}
}
