package dev.protomolt.repository.purge;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.events.v1.DeletionReason;
import dev.protomolt.proto.events.v1.DocumentDeleted;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.repository.DocumentReferences;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The application service behind the reclaim-requests and document-deleted topics: it takes a
 * decoded batch and tombstones each named row through the store (which publishes the purge event).
 * Consuming the topics is the Lambda handlers' job; this class never sees Kafka.
 */
public final class DeletionRequests {

  private final PipeDocStore store;

  public DeletionRequests(PipeDocStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * Reclaims inter-step bodies the engine no longer needs: only the exact CACHE copy each request
   * names by its manifest checksum and save time (decision 0817). A PERSIST ({@code keep}) row, a
   * newer copy at the same address and a gone row are unchanged; only an explicit delete removes a
   * PERSIST row.
   */
  public DeletionReport reclaim(List<ReclaimRequest> batch) {
    List<String> purgeEventIds = new ArrayList<>();
    int unchanged = 0;
    List<String> rejected = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      ReclaimRequest request = batch.get(i);
      NodeCoordinates coordinates;
      try {
        coordinates = DocumentReferences.coordinates(request.getDocumentRef(), "document_ref");
      } catch (PipeDocStoreException.InvalidRequest e) {
        rejected.add("event " + i + ": " + e.getMessage());
        continue;
      }
      if (request.getExpectedChecksum().isBlank() || !request.hasExpectedUpdatedAt()) {
        // Without the copy's identity a late request could take a newer copy at the same address
        // (decision 0817); leaving the copy costs only storage until retention.
        rejected.add(
            "event "
                + i
                + ": expected_checksum and expected_updated_at are required: a reclaim"
                + " deletes only the exact copy it names");
        continue;
      }
      var published =
          store.reclaimCacheCopy(
              coordinates,
              request.getReason().isBlank() ? "RECLAIM" : "RECLAIM: " + request.getReason(),
              request.getExpectedChecksum(),
              request.getExpectedUpdatedAt());
      if (published.isPresent()) {
        purgeEventIds.add(published.get().getPurgeEventId());
      } else {
        unchanged++;
      }
    }
    return new DeletionReport(purgeEventIds, unchanged, rejected);
  }

  /** Explicit deletes. */
  public DeletionReport delete(List<DocumentDeleted> batch) {
    return apply(batch, DocumentDeleted::getDocumentRef, r -> false, DeletionRequests::reason);
  }

  private static String reason(DocumentDeleted event) {
    DeletionReason reason = event.getReason();
    return reason == DeletionReason.DELETION_REASON_UNSPECIFIED
            || reason == DeletionReason.UNRECOGNIZED
        ? "DELETED"
        : reason.name().replace("DELETION_REASON_", "");
  }

  private <E> DeletionReport apply(
      List<E> batch,
      Function<E, DocumentReference> ref,
      Function<E, Boolean> cacheOnly,
      Function<E, String> reason) {
    List<String> purgeEventIds = new ArrayList<>();
    int alreadyGone = 0;
    List<String> rejected = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      E event = batch.get(i);
      NodeCoordinates coordinates;
      try {
        coordinates = DocumentReferences.coordinates(ref.apply(event), "document_ref");
      } catch (PipeDocStoreException.InvalidRequest e) {
        // One unreadable event must not stop (or lose) the rest of the batch.
        rejected.add("event " + i + ": " + e.getMessage());
        continue;
      }
      var published = store.tombstone(coordinates, reason.apply(event), cacheOnly.apply(event));
      if (published.isPresent()) {
        purgeEventIds.add(published.get().getPurgeEventId());
      } else {
        alreadyGone++;
      }
    }
    return new DeletionReport(purgeEventIds, alreadyGone, rejected);
  }

  /**
   * @param purgeEventIds one per row tombstoned by this batch
   * @param unchanged events whose row was not ACTIVE (or was a PERSIST row named by a reclaim)
   * @param rejected unreadable events, each with the reason naming the field
   */
  public record DeletionReport(List<String> purgeEventIds, int unchanged, List<String> rejected) {
    public DeletionReport {
      purgeEventIds = List.copyOf(purgeEventIds);
      rejected = List.copyOf(rejected);
    }
  }
}
