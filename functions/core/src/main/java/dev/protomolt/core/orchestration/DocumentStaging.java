package dev.protomolt.core.orchestration;

import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.Optional;
import java.util.Set;

/**
 * The document store as the hop services see it: claim-check hydration and staging. The adapter
 * over the repository's {@code PipeDocStore} lives with the repository; a transient failure is
 * thrown as {@link TransientStoreFailure} so the hop is retried rather than dead-lettered.
 */
public interface DocumentStaging {

  /**
   * Level 1 and 2 hydration: the stored document with only the {@code parts} asked for (empty =
   * every part), and its blob bytes only when {@code withBlobBytes}.
   */
  PipeDoc hydrate(DocumentReference reference, Set<PipeDocPart> parts, boolean withBlobBytes);

  /**
   * Saves {@code document} at the address of node {@code nodeId} of {@code graphId} for account
   * {@code accountId}; {@code keep} is true for PERSIST (a replay point) and false for CACHE.
   */
  DocumentReference stage(
      PipeDoc document, String accountId, String graphId, String nodeId, boolean keep);

  /**
   * Saves {@code document}, which was read in full from the stored state {@code source}, at the
   * address of node {@code nodeId} as a partial save: only the parts (and chunk sets) the per-part
   * diff against {@code source}'s manifest reports changed are written, the rest are carried
   * forward from {@code source} inside the object store (decision 0104, 0813). What is written is
   * observed, never taken from a module's word. A source that is gone, or belongs to another
   * document or account, gets a full save instead.
   */
  DocumentReference stageFrom(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep);

  /**
   * Like {@link #stageFrom}, for a {@code document} read from {@code source} without its BLOBS part
   * (hydration level 2 skipped): the diff observes every other part, and BLOBS is always carried
   * forward from {@code source}. A save that cannot carry from {@code source} (it is gone, or it
   * belongs to another document or account) is refused with {@link BlobsNotInHand} rather than
   * written without the blobs the source holds; the caller reads them and stages with {@link
   * #stageFrom}.
   */
  DocumentReference stageFromWithoutBlobs(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep);

  /**
   * A copy of the stored state {@code source} at the address of node {@code nodeId}: every part
   * and chunk set carried forward inside the object store, nothing read and nothing written
   * (decision 1838). For a hop that hands on a body it neither changed nor needed to read. A
   * source that is gone is the store's typed refusal: there is no body in hand to save instead.
   */
  DocumentReference carryAll(
      DocumentReference source, String accountId, String graphId, String nodeId, boolean keep);

  /**
   * {@link #carryAll} to a PERSIST address, except that an address already holding exactly the
   * source's content (equal part hashes) is left as it is, with nothing copied or committed
   * (decision 1840). For putting a memoized output back where a replay usually finds it still.
   */
  DocumentReference carryAllUnlessHeld(
      DocumentReference source, String accountId, String graphId, String nodeId);

  /**
   * The manifest of the ACTIVE stored state {@code reference} names (no object is read), or empty
   * when it is gone. Its checksum and save time identify that exact copy in a reclaim request.
   */
  Optional<PipeDocManifest> activeManifest(DocumentReference reference);

  /**
   * Reclaims a CACHE copy (keep=false). The hop services only request it (a {@code ReclaimRequest}
   * on {@code reclaim-requests}); the reclaim consumer calls this once the hop has settled.
   */
  void reclaim(DocumentReference reference);

  /** A carry of BLOBS was impossible and the blob bytes were never read: nothing was written. */
  final class BlobsNotInHand extends RuntimeException {
    public BlobsNotInHand(String message) {
      super(message);
    }
  }

  /** The store could not answer now; retrying may succeed. */
  final class TransientStoreFailure extends RuntimeException {
    public TransientStoreFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
