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
   * A write token larger than every token handed out before, across every caller of the same
   * ledger. A save takes one before it writes any object: it names the save's objects and orders
   * the save against other saves at the same address (decision 1600).
   */
  long nextWriteToken();

  /**
   * Commits a save's stored state at its address under "newest write wins": the row is replaced
   * only when {@code writeToken} is larger than the token of the state stored there (a row without
   * one counts as oldest). Whichever state loses, the newer or the older save's, is recorded as
   * superseded in the same transaction, so its objects are reclaimed after the grace period.
   * {@code createdAt} of an existing row is kept.
   *
   * @param at when the commit happens (after the save's objects were written): the grace period
   *     of whatever is superseded starts then, since a reader may have read its manifest until then
   */
  SaveCommit commit(PipeDocRecord record, long writeToken, Instant at);

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
