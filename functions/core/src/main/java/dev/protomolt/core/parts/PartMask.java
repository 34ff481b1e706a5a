package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which parts a read fetches (or a writer observed): a set of parts and, for CHUNKS, optionally only
 * some chunk sets by sub key. An empty chunk-set filter means every chunk set.
 *
 * @param parts     the parts included
 * @param chunkSets sub keys of the chunk sets included; empty for all of them
 */
public record PartMask(Set<PipeDocPart> parts, Set<String> chunkSets) {
  /** Every part and every chunk set. */
  public static final PartMask ALL =
      new PartMask(
          EnumSet.of(
              PipeDocPart.PIPE_DOC_PART_CORE,
              PipeDocPart.PIPE_DOC_PART_BLOBS,
              PipeDocPart.PIPE_DOC_PART_CHUNKS,
              PipeDocPart.PIPE_DOC_PART_PARSED),
          Set.of());

  public PartMask {
    parts = Set.copyOf(parts);
    chunkSets = Set.copyOf(chunkSets);
    for (PipeDocPart part : parts) {
      if (part == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || part == PipeDocPart.UNRECOGNIZED) {
        throw new IllegalArgumentException(
            "parts must name CORE, BLOBS, CHUNKS or PARSED, got " + part);
      }
    }
    if (!chunkSets.isEmpty() && !parts.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS)) {
      throw new IllegalArgumentException("chunk_sets may only be given when parts include CHUNKS");
    }
  }

  /** A mask of whole parts. */
  public static PartMask of(PipeDocPart... parts) {
    return new PartMask(Set.of(parts), Set.of());
  }

  public boolean includes(PipeDocPart part) {
    return parts.contains(part);
  }

  /** Whether a chunk set with this sub key is included. */
  public boolean includesChunkSet(String subKey) {
    return parts.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS)
        && (chunkSets.isEmpty() || chunkSets.contains(subKey));
  }
}
