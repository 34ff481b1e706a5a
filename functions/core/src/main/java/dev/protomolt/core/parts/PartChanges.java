package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;
import java.util.List;
import java.util.Set;

/**
 * What a save must actually write, derived by observing the new document against the stored
 * manifest: this is where {@code parts_written} and {@code chunk_sets_written} come from.
 *
 * @param partsWritten      parts whose stored objects change; every other part is carried forward
 * @param chunkSetsWritten  sub keys of chunk sets whose bytes are new or changed, in document order
 * @param chunkSetsRemoved  sub keys of stored chunk sets the new document no longer has
 * @param chunkOrderChanged true when the surviving chunk sets appear in a different order
 */
public record PartChanges(
    Set<PipeDocPart> partsWritten,
    List<String> chunkSetsWritten,
    List<String> chunkSetsRemoved,
    boolean chunkOrderChanged) {
  public PartChanges {
    partsWritten = Set.copyOf(partsWritten);
    chunkSetsWritten = List.copyOf(chunkSetsWritten);
    chunkSetsRemoved = List.copyOf(chunkSetsRemoved);
  }

  /** True when nothing differs: the save may carry every part forward. */
  public boolean unchanged() {
    return partsWritten.isEmpty();
  }
}
