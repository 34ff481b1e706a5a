package dev.protomolt.repository.reconcile;

import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.StoredObject;
import dev.protomolt.names.StoragePrefix;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.repository.postgres.LedgerException;
import dev.protomolt.repository.purge.SupersededStates;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Enforces the store's one coherence rule: an object that no live ledger row names is an orphan,
 * and orphans are reclaimable. The S3 write and the ledger row are not committed together, so
 * orphans are expected (a save that failed after its PUTs, a chunk set a later save dropped).
 *
 * <p>Only keys in the store's own layouts ({@code <drive prefix><nodeId>/...}, and {@code
 * cache/<drive prefix><nodeId>/...} for CACHE copies) are judged; anything
 * else in the bucket is not the store's to delete. Ownership is checked against rows of any drive
 * in the same bucket that are ACTIVE or PENDING_PURGE (the purger owns the latter's objects).
 */
public final class StorageReconciler {

  /** Keys judged per ownership query. */
  private static final int BATCH = 1000;

  private static final String OWNERS =
      "SELECT p.manifest FROM pipedocs p JOIN drives d ON d.drive_name = p.drive_name WHERE"
          + " p.node_id = ANY (?) AND p.status IN ('ACTIVE', 'PENDING_PURGE') AND d.bucket = ?"
          // A superseded state still in its grace period owns its objects until it is reclaimed.
          + " UNION ALL SELECT x.manifest FROM pipedoc_superseded x JOIN drives d ON d.drive_name ="
          + " x.drive_name WHERE x.node_id = ANY (?) AND d.bucket = ?";

  private final DataSource dataSource;
  private final BlobStore blobs;
  private final ReconcilerSettings settings;
  private final Clock clock;
  private final SupersededStates superseded;

  public StorageReconciler(
      DataSource dataSource, BlobStore blobs, ReconcilerSettings settings, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.superseded = new SupersededStates(dataSource, blobs, clock);
  }

  /**
   * Reconciles one drive, as one report: first the states that newer saves superseded more than
   * the minimum age ago are reclaimed with their purge proof (always, even in a dry run: they are
   * the store's own record of exactly which objects lost their owner, not a guess from a listing),
   * then its PERSIST layout under the drive prefix and its CACHE layout under {@code cache/<drive
   * prefix>} ({@code ObjectKeys.forCopy}) are judged for orphans.
   */
  public ReconcileReport reconcile(Drive drive) {
    return run(drive, false, object -> {});
  }

  /**
   * What {@link #reconcile} would find on one drive, and nothing else: no superseded state is
   * reclaimed and no orphan deleted whatever the settings say, so the report is a dry run in every
   * environment. Every listed object is also handed to {@code listed}, so a caller can check the
   * ledger's side against the same listing (storage coherence).
   */
  public ReconcileReport survey(Drive drive, Consumer<StoredObject> listed) {
    return run(drive, true, Objects.requireNonNull(listed, "listed"));
  }

  private ReconcileReport run(Drive drive, boolean readOnly, Consumer<StoredObject> listed) {
    Instant cutoff = clock.instant().minus(settings.minimumAge());
    SupersededStates.Reclaimed reclaimed =
        readOnly
            ? new SupersededStates.Reclaimed(0, 0, List.of())
            : superseded.reclaimDue(drive, cutoff);
    Tally tally = new Tally(!readOnly && settings.deleteOrphans(), listed);
    Drive cache =
        new Drive(
            drive.name(),
            drive.accountId(),
            drive.kind(),
            drive.bucket(),
            StoragePrefix.CACHE_STAGING + drive.prefix(),
            drive.region(),
            drive.credentialsRef(),
            drive.provider());
    // A drive at the bucket root lists the CACHE layout too; it is judged by the second pass.
    scan(drive, cache.prefix(), cutoff, tally);
    scan(cache, null, cutoff, tally);
    return new ReconcileReport(
        drive.name(),
        !tally.deletes,
        tally.scanned,
        tally.foreign,
        tally.young,
        tally.owned,
        tally.orphans,
        tally.sample,
        tally.deleted,
        tally.notDeleted,
        reclaimed.states(),
        reclaimed.objectsDeleted(),
        reclaimed.notDeleted());
  }

  private void scan(Drive drive, String skipPrefix, Instant cutoff, Tally tally) {
    List<Candidate> batch = new ArrayList<>();
    blobs.list(
        drive,
        object -> {
          if (skipPrefix != null && object.key().startsWith(skipPrefix)) {
            return;
          }
          tally.scanned++;
          tally.listed.accept(object);
          UUID nodeId = nodeOf(drive, object.key());
          if (nodeId == null) {
            tally.foreign++;
            return;
          }
          if (object.lastModified().isAfter(cutoff)) {
            tally.young++;
            return;
          }
          batch.add(new Candidate(object, nodeId));
          if (batch.size() == BATCH) {
            judge(drive, batch, tally);
            batch.clear();
          }
        });
    judge(drive, batch, tally);
  }

  private void judge(Drive drive, List<Candidate> batch, Tally tally) {
    if (batch.isEmpty()) {
      return;
    }
    // Ownership is read after the listing, so a row committed before this query is always seen.
    Set<String> owned = ownedKeys(drive.bucket(), batch);
    List<ObjectAddress> orphans = new ArrayList<>();
    for (Candidate c : batch) {
      if (owned.contains(c.object().key())) {
        tally.owned++;
        continue;
      }
      tally.orphans++;
      if (tally.sample.size() < settings.sampleSize()) {
        tally.sample.add(c.object().key());
      }
      orphans.add(new ObjectAddress(drive, c.object().key()));
    }
    if (tally.deletes && !orphans.isEmpty()) {
      List<ObjectAddress> refused = blobs.deleteAll(orphans);
      tally.deleted += orphans.size() - refused.size();
      refused.forEach(a -> tally.notDeleted.add(a.key()));
    }
  }

  private Set<String> ownedKeys(String bucket, List<Candidate> batch) {
    Set<UUID> nodeIds = new LinkedHashSet<>();
    batch.forEach(c -> nodeIds.add(c.nodeId()));
    Set<String> keys = new HashSet<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(OWNERS)) {
      s.setArray(1, c.createArrayOf("uuid", nodeIds.toArray()));
      s.setString(2, bucket);
      s.setArray(3, c.createArrayOf("uuid", nodeIds.toArray()));
      s.setString(4, bucket);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          for (PartManifestEntry e : ManifestJson.fromJson(rs.getString(1)).getEntriesList()) {
            if (!e.getObjectKey().isBlank()) {
              keys.add(e.getObjectKey());
            }
          }
        }
      }
    } catch (SQLException e) {
      throw new LedgerException(
          "reading the owners of " + nodeIds.size() + " nodes in bucket " + bucket, e);
    }
    return keys;
  }

  /** The node a key belongs to in the store's layout, or null for a key outside it. */
  private static UUID nodeOf(Drive drive, String key) {
    if (!key.startsWith(drive.prefix())) {
      return null;
    }
    String rest = key.substring(drive.prefix().length());
    int slash = rest.indexOf('/');
    if (slash != 36) {
      return null;
    }
    try {
      UUID id = UUID.fromString(rest.substring(0, slash));
      // UUID.fromString accepts non-canonical spellings; the store only ever writes canonical ones.
      return id.toString().equals(rest.substring(0, slash)) ? id : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private record Candidate(StoredObject object, UUID nodeId) {}

  private static final class Tally {
    final boolean deletes;
    final Consumer<StoredObject> listed;
    long scanned;
    long foreign;
    long young;
    long owned;
    long orphans;
    long deleted;
    final List<String> sample = new ArrayList<>();
    final List<String> notDeleted = new ArrayList<>();

    Tally(boolean deletes, Consumer<StoredObject> listed) {
      this.deletes = deletes;
      this.listed = listed;
    }
  }
}
