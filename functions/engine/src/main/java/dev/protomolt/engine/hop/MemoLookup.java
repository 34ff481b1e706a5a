package dev.protomolt.engine.hop;

import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.memo.MemoKey;
import dev.protomolt.core.memo.MemoPolicy;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.Optional;

/**
 * A hop's memo (decisions 1812, 1813) as Dispatch and Complete look it up: the stored input it
 * reads, its key, and the memoized output when one is still stored exactly as it was recorded.
 */
final class MemoLookup {

  private final HopContext hop;
  private final HopMemos memos;

  MemoLookup(HopContext hop, HopMemos memos) {
    this.hop = hop;
    this.memos = memos;
  }

  /** The stored state the hop reads, when the hop takes part in memoization at all. */
  Optional<PipeDocManifest> input(HopIdentity id, PinnedNode pinned, PipeStream stream) {
    if (memos == HopMemos.NONE || !MemoPolicy.eligible(pinned.node(), stream)) {
      return Optional.empty();
    }
    try {
      return hop.staging.activeManifest(stream.getDocumentRef());
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "reading the input manifest of node '" + id.nodeId() + "' failed: " + e.getMessage(), e);
    }
  }

  static MemoKey key(HopIdentity id, PinnedNode pinned, PipeStream stream, PipeDocManifest input) {
    return MemoKey.of(
        stream.getMetadata().getAccountId(),
        stream.getDocumentRef().getDocId(),
        id.graphId(),
        pinned.node(),
        input.getChecksum());
  }

  /**
   * The stream as the module's answer would be, referring to the memoized output and marked
   * memoized for the node, when the hop may reuse a memo and one is still stored as recorded; a
   * memo whose output was purged or replaced is forgotten, and the module must run.
   */
  Optional<PipeStream> reuse(HopIdentity id, PinnedNode pinned, PipeStream stream) {
    if (!MemoPolicy.reuses(pinned.node(), stream)) {
      return Optional.empty();
    }
    return input(id, pinned, stream)
        .flatMap(input -> reuse(key(id, pinned, stream, input), stream));
  }

  /** {@link #reuse(HopIdentity, PinnedNode, PipeStream)} for a key already computed. */
  Optional<PipeStream> reuse(MemoKey key, PipeStream stream) {
    Optional<HopMemos.Memoized> memo = memos.find(key);
    if (memo.isEmpty()) {
      return Optional.empty();
    }
    Optional<PipeDocManifest> output;
    try {
      output = hop.staging.activeManifest(memo.get().output());
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "reading the memoized output of node '" + key.nodeId() + "' failed: " + e.getMessage(),
          e);
    }
    if (output.isEmpty() || !output.get().getChecksum().equals(memo.get().checksum())) {
      memos.forget(key);
      return Optional.empty();
    }
    try {
      memos.reused(key);
    } catch (RuntimeException e) {
      // Only the count shown by `protomolt status` misses this hop; the reuse stands.
    }
    return Optional.of(
        stream.toBuilder()
            .setDocumentRef(memo.get().output())
            .setMetadata(
                stream.getMetadata().toBuilder()
                    .putContextParams(
                        MemoPolicy.MEMOIZED_PARAM_PREFIX + key.nodeId(), key.digest()))
            .build());
  }
}
