package dev.protomolt.core.store;

import java.util.List;
import java.util.function.Consumer;

/**
 * Object storage for part bytes. Implementations are safe to call from many threads at once: the
 * document store fans part reads and writes out on virtual threads.
 */
public interface BlobStore {

  /**
   * Writes {@code bytes} at {@code to}, replacing any object there.
   *
   * @param verifyChecksum when true the store itself verifies the landed bytes by SHA-256
   */
  void put(ObjectAddress to, byte[] bytes, boolean verifyChecksum);

  /**
   * Writes {@code bytes} at {@code to} only if no object is there yet: the write of a key that must
   * never be overwritten (a save's own part objects, decision 1600). Finding the very same bytes
   * there already counts as written, so a retried request whose first attempt landed succeeds.
   *
   * @param verifyChecksum when true the store itself verifies the landed bytes by SHA-256
   * @throws ObjectExistsException when different bytes are already stored at {@code to}
   */
  void create(ObjectAddress to, byte[] bytes, boolean verifyChecksum);

  /** The object's bytes; {@link ObjectMissingException} when there is none. */
  byte[] get(ObjectAddress from);

  /**
   * Copies {@code from} to {@code to}. When both drives are reached with the same credentials the
   * copy happens inside the object store and no byte passes through the caller; otherwise the
   * bytes are read with the source drive's credentials and written with the target's.
   *
   * @return how the copy was made
   * @throws ObjectMissingException when the source object does not exist
   */
  CopyMode copy(ObjectAddress from, ObjectAddress to);

  /**
   * Deletes every listed object. An object that is already gone counts as deleted (deleting is
   * idempotent, so a retried purge converges).
   *
   * @return the addresses that could not be deleted; empty when all are gone
   */
  List<ObjectAddress> deleteAll(List<ObjectAddress> addresses);

  /**
   * Every object under the drive's prefix, page by page; the callback sees each once. Used by the
   * reconciler, never by reads or saves (the manifest, not a listing, says what a document holds).
   */
  void list(Drive drive, Consumer<StoredObject> each);

  /** Whether a copy stayed inside the object store. */
  enum CopyMode {
    SERVER_SIDE,
    THROUGH_CALLER
  }
}
