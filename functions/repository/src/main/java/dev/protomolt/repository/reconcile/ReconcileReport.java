package dev.protomolt.repository.reconcile;

import java.util.List;

/**
 * What one reconciliation of a drive found.
 *
 * @param scanned objects listed under the drive's prefix
 * @param foreign objects outside the store's key layout ({@code <prefix><nodeId>/...}), which the
 *     reconciler never touches (raw intake objects, for one)
 * @param young objects younger than the minimum age, skipped
 * @param owned objects a live row's manifest names
 * @param orphans objects in the store's layout, old enough, that no live row names
 * @param sample up to the configured number of orphan keys
 * @param deleted orphans deleted (always 0 in a dry run)
 * @param notDeleted orphans the object store refused to delete
 * @param supersededReclaimed states superseded by newer saves longer than the minimum age ago
 *     whose objects were deleted and whose purge proof was written
 * @param supersededObjectsDeleted the objects of those states
 * @param supersededNotDeleted keys of superseded states the object store refused to delete
 */
public record ReconcileReport(
    String driveName,
    boolean dryRun,
    long scanned,
    long foreign,
    long young,
    long owned,
    long orphans,
    List<String> sample,
    long deleted,
    List<String> notDeleted,
    long supersededReclaimed,
    long supersededObjectsDeleted,
    List<String> supersededNotDeleted) {

  public ReconcileReport {
    sample = List.copyOf(sample);
    notDeleted = List.copyOf(notDeleted);
    supersededNotDeleted = List.copyOf(supersededNotDeleted);
  }
}
