package dev.protomolt.repository.reconcile;

import java.util.List;
import java.util.Map;

/**
 * One drive's storage coherence, read-only: the ledger's rows by state, the objects no live row
 * owns (as the reconciler would judge them, nothing deleted) and the live rows whose objects are
 * gone.
 *
 * @param rowsByStatus ledger rows on the drive per status (ACTIVE, PENDING_PURGE, PURGED)
 * @param orphans the reconciler's dry-run judgement of the drive's listing
 * @param rowsChecked ACTIVE rows written before the listing began, whose objects were looked for
 * @param rowsMissingObjects of those, PERSIST rows (keep) naming at least one object the listing
 *     did not hold: incoherent, the document cannot be read back
 * @param missingSample up to the sample size of them, as {@code doc_id node_id object_key}
 * @param cacheRowsMissingObjects CACHE rows whose objects are gone: expected once the bucket's
 *     cache staging lifecycle rule has expired them, so counted apart
 */
public record CoherenceReport(
    String driveName,
    String bucket,
    String prefix,
    Map<String, Long> rowsByStatus,
    ReconcileReport orphans,
    long rowsChecked,
    long rowsMissingObjects,
    List<String> missingSample,
    long cacheRowsMissingObjects) {

  public CoherenceReport {
    rowsByStatus = Map.copyOf(rowsByStatus);
    missingSample = List.copyOf(missingSample);
  }

  /** Coherent: no orphan and no PERSIST row without its objects. */
  public boolean coherent() {
    return orphans.orphans() == 0 && rowsMissingObjects == 0;
  }
}
