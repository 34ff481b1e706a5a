package dev.protomolt.core.memo;

import dev.protomolt.proto.data.v1.DocumentReference;
import java.util.Optional;

/**
 * The memo index (decision 1813): per document and node, the newest memoized output and the key it
 * was computed under. The adapter lives with the repository; {@link #NONE} memoizes nothing.
 */
public interface HopMemos {

  /** The memoized output recorded under exactly {@code key}, if any. */
  Optional<Memoized> find(MemoKey key);

  /** Records {@code output} as the memo of {@code key}, replacing the node's earlier memo. */
  void record(MemoKey key, Memoized output);

  /** Forgets the memo of {@code key}'s document and node (its stored output is gone). */
  void forget(MemoKey key);

  /** Counts one hop of {@code key}'s module answered from its memo (decision 1816). */
  void reused(MemoKey key);

  /**
   * A stored output and the checksum it had when it was memoized: a reuse is valid only while the
   * reference still names an ACTIVE state with that checksum.
   */
  record Memoized(DocumentReference output, String checksum) {}

  HopMemos NONE =
      new HopMemos() {
        @Override
        public Optional<Memoized> find(MemoKey key) {
          return Optional.empty();
        }

        @Override
        public void record(MemoKey key, Memoized output) {}

        @Override
        public void forget(MemoKey key) {}

        @Override
        public void reused(MemoKey key) {}
      };
}
