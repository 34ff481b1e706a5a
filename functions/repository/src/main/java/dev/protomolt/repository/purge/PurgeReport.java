package dev.protomolt.repository.purge;

import java.util.List;
import java.util.UUID;

/**
 * What one purge batch did with each event.
 *
 * @param purged rows whose objects were deleted and which were finalized PURGED with a proof row
 * @param voided events whose row was no longer PENDING_PURGE (revived, already purged or gone):
 *     nothing was deleted for them
 * @param failed rows some of whose objects the object store would not delete; they stay
 *     PENDING_PURGE for a later batch
 * @param rejected events that could not be read at all, each with the reason naming the field
 */
public record PurgeReport(
    List<UUID> purged, List<UUID> voided, List<UUID> failed, List<String> rejected) {

  public PurgeReport {
    purged = List.copyOf(purged);
    voided = List.copyOf(voided);
    failed = List.copyOf(failed);
    rejected = List.copyOf(rejected);
  }
}
