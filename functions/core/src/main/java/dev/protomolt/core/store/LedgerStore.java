package dev.protomolt.core.store;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The ledger of stored states. Every method is one short statement: callers never hold a
 * transaction open while they talk to object storage.
 */
public interface LedgerStore {

  /** The row for {@code nodeId} in any status. */
  Optional<PipeDocRecord> find(UUID nodeId);

  /**
   * Inserts the row or replaces every mutable column of the existing one (a re-save of the same
   * identity converges on one row). {@code createdAt} of an existing row is kept.
   */
  void upsert(PipeDocRecord record);

  /**
   * Marks an ACTIVE row PENDING_PURGE, which hides it from reads at once.
   *
   * @return false when there was no ACTIVE row
   */
  boolean tombstone(UUID nodeId, Instant at);

  /**
   * Marks the row PENDING_PURGE only while it is an ACTIVE CACHE row ({@code keep=false}) whose
   * manifest still has {@code manifestChecksum} and {@code manifestUpdatedAt}: the exact stored
   * state a reclaim request names. The check and the update are one statement, so a newer copy
   * saved at the same address in between is never taken (decision 0817).
   *
   * @return false when no such row was there
   */
  boolean tombstoneCacheCopy(
      UUID nodeId, Instant at, String manifestChecksum, Timestamp manifestUpdatedAt);
}
