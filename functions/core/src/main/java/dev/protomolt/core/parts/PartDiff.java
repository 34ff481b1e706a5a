package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares a freshly split document with the stored manifest it was read from and reports which
 * parts and chunk sets changed. The engine derives {@code parts_written} from this observation and
 * never from what a module declares.
 *
 * <p>A part is unchanged when both sides are EMPTY, or when the stored entry is PRESENT with the same
 * size and SHA-256. A stored DELETED entry never counts as unchanged: its bytes are gone and cannot
 * be carried forward. A part the writer never read (outside the observed mask) and that the new
 * document leaves empty is carried forward: its absence means "not fetched", not "removed".
 */
public final class PartDiff {
  private static final List<PipeDocPart> SINGLE_PARTS =
      List.of(
          PipeDocPart.PIPE_DOC_PART_CORE,
          PipeDocPart.PIPE_DOC_PART_BLOBS,
          PipeDocPart.PIPE_DOC_PART_PARSED);

  private PartDiff() {}

  /** Changes of a document that was read in full. */
  public static PartChanges between(PipeDocManifest stored, PipeDocManifest fresh) {
    return between(stored, fresh, PartMask.ALL);
  }

  /**
   * Changes of a document that was read with the given mask.
   *
   * @param stored   the manifest of the state the document was read from
   * @param fresh    the manifest of the new document's split
   * @param observed the parts (and chunk sets) the writer was given
   */
  public static PartChanges between(
      PipeDocManifest stored, PipeDocManifest fresh, PartMask observed) {
    Set<PipeDocPart> written = EnumSet.noneOf(PipeDocPart.class);
    for (PipeDocPart part : SINGLE_PARTS) {
      PartManifestEntry before = single(stored, part);
      PartManifestEntry after = single(fresh, part);
      boolean afterEmpty = after == null || after.getState() != PartState.PART_STATE_PRESENT;
      if (!observed.includes(part) && afterEmpty) {
        continue;
      }
      if (!sameContent(before, after)) {
        written.add(part);
      }
    }

    Map<String, PartManifestEntry> storedSets = chunkSets(stored);
    Map<String, PartManifestEntry> freshSets = chunkSets(fresh);
    List<String> chunkSetsWritten = new ArrayList<>();
    for (Map.Entry<String, PartManifestEntry> set : freshSets.entrySet()) {
      if (!sameContent(storedSets.get(set.getKey()), set.getValue())) {
        chunkSetsWritten.add(set.getKey());
      }
    }
    List<String> chunkSetsRemoved = new ArrayList<>();
    for (String subKey : storedSets.keySet()) {
      if (!freshSets.containsKey(subKey) && observed.includesChunkSet(subKey)) {
        chunkSetsRemoved.add(subKey);
      }
    }
    List<String> storedOrder = new ArrayList<>(storedSets.keySet());
    storedOrder.retainAll(freshSets.keySet());
    List<String> freshOrder = new ArrayList<>(freshSets.keySet());
    freshOrder.retainAll(storedSets.keySet());
    boolean chunkOrderChanged = !storedOrder.equals(freshOrder);
    if (!chunkSetsWritten.isEmpty() || !chunkSetsRemoved.isEmpty() || chunkOrderChanged) {
      written.add(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    }
    return new PartChanges(written, chunkSetsWritten, chunkSetsRemoved, chunkOrderChanged);
  }

  private static boolean sameContent(PartManifestEntry before, PartManifestEntry after) {
    PartState afterState = after == null ? PartState.PART_STATE_EMPTY : after.getState();
    if (before == null) {
      return false;
    }
    return switch (afterState) {
      case PART_STATE_EMPTY -> before.getState() == PartState.PART_STATE_EMPTY;
      case PART_STATE_PRESENT ->
          before.getState() == PartState.PART_STATE_PRESENT
              && before.getSizeBytes() == after.getSizeBytes()
              && before.getSha256().equals(after.getSha256());
      case PART_STATE_DELETED, PART_STATE_UNSPECIFIED, UNRECOGNIZED -> false;
    };
  }

  private static PartManifestEntry single(PipeDocManifest manifest, PipeDocPart part) {
    for (PartManifestEntry entry : manifest.getEntriesList()) {
      if (entry.getPart() == part) {
        return entry;
      }
    }
    return null;
  }

  /** PRESENT or DELETED chunk-set entries by sub key, in manifest order; the EMPTY marker is left out. */
  private static Map<String, PartManifestEntry> chunkSets(PipeDocManifest manifest) {
    Map<String, PartManifestEntry> sets = new LinkedHashMap<>();
    for (PartManifestEntry entry : manifest.getEntriesList()) {
      if (entry.getPart() == PipeDocPart.PIPE_DOC_PART_CHUNKS && !entry.getSubKey().isEmpty()) {
        sets.put(entry.getSubKey(), entry);
      }
    }
    return sets;
  }
}
