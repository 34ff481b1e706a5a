package dev.protomolt.repository.reconcile;

import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.Drive;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
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
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The store's read-only health signal for one drive: counts of ledger rows by state, the orphan
 * sample (objects no live row owns, judged exactly as {@link StorageReconciler} judges them, with
 * nothing reclaimed or deleted) and the live rows whose objects are gone. Both sides are checked
 * against one listing of the drive; rows written after the listing began are not judged, since
 * their objects may have landed after the listing passed them.
 *
 * <p>The listed keys are held in memory for the check, one string per object: meant for an
 * operator's look at one account's drives, not as a sweep over a bucket of millions.
 */
public final class StorageCoherence {

  private static final String COUNTS =
      "SELECT status, count(*) FROM pipedocs WHERE drive_name = ? GROUP BY status";

  private static final String LIVE_ROWS =
      "SELECT doc_id, node_id, keep, manifest FROM pipedocs WHERE drive_name = ? AND status ="
          + " 'ACTIVE' AND updated_at < ?";

  private final DataSource dataSource;
  private final StorageReconciler reconciler;
  private final int sampleSize;
  private final Clock clock;

  public StorageCoherence(
      DataSource dataSource, StorageReconciler reconciler, int sampleSize, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    if (sampleSize < 0) {
      throw new IllegalArgumentException("sampleSize must be >= 0, got " + sampleSize);
    }
    this.sampleSize = sampleSize;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public CoherenceReport check(Drive drive) {
    Instant listingStarted = clock.instant();
    Set<String> listed = new HashSet<>();
    ReconcileReport orphans = reconciler.survey(drive, object -> listed.add(object.key()));
    TreeMap<String, Long> counts = new TreeMap<>();
    long checked = 0;
    long missing = 0;
    long cacheMissing = 0;
    List<String> sample = new ArrayList<>();
    try (Connection c = dataSource.getConnection()) {
      try (PreparedStatement s = c.prepareStatement(COUNTS)) {
        s.setString(1, drive.name());
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            counts.put(rs.getString(1), rs.getLong(2));
          }
        }
      }
      // A cursor (autocommit off, a fetch size) so a large drive streams instead of loading whole.
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement(LIVE_ROWS)) {
        s.setFetchSize(500);
        s.setString(1, drive.name());
        s.setTimestamp(2, Timestamp.from(listingStarted));
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            checked++;
            String gone = firstMissing(rs.getString(4), listed);
            if (gone == null) {
              continue;
            }
            if (!rs.getBoolean(3)) {
              cacheMissing++;
              continue;
            }
            missing++;
            if (sample.size() < sampleSize) {
              sample.add(rs.getString(1) + " " + rs.getString(2) + " " + gone);
            }
          }
        }
      } finally {
        c.commit();
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new LedgerException("checking the coherence of drive " + drive.name(), e);
    }
    return new CoherenceReport(
        drive.name(),
        drive.bucket(),
        drive.prefix(),
        counts,
        orphans,
        checked,
        missing,
        sample,
        cacheMissing);
  }

  /** The first object key the row's manifest names that the listing did not hold, or null. */
  private static String firstMissing(String manifestJson, Set<String> listed) {
    for (PartManifestEntry e : ManifestJson.fromJson(manifestJson).getEntriesList()) {
      if (!e.getObjectKey().isBlank() && !listed.contains(e.getObjectKey())) {
        return e.getObjectKey();
      }
    }
    return null;
  }
}
