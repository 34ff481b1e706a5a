package dev.protomolt.core.replay;

import dev.protomolt.core.parts.DeletedReason;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a stored state can be replayed, decided from its manifest alone so that callers never
 * re-derive retention semantics (and no object is fetched to decide).
 *
 * <p>A required part is satisfied when every entry of it is PRESENT or EMPTY (an empty part replays
 * as empty). A part that is missing only because the source blob was settled after indexing
 * ({@code BLOBS} DELETED for {@code POST_PARSE_POLICY}) makes the document a SOURCE_RECEIPT: the
 * manifest proves what the bytes were and they must be fetched from the source again. Anything
 * else missing (no entry, DELETED for another reason, no state) is BODY_MISSING.
 */
public final class ReplayVerdicts {

  private ReplayVerdicts() {}

  /** The verdict, the required parts that are not there, and a sentence saying why. */
  public record Verdict(
      ReplayEligibility eligibility, List<PipeDocPart> missingParts, String reason) {
    public Verdict {
      missingParts = List.copyOf(missingParts);
    }
  }

  /**
   * @param required the parts the replay target needs; empty means every part
   */
  public static Verdict of(PipeDocManifest manifest, Set<PipeDocPart> required) {
    Set<PipeDocPart> wanted =
        required.isEmpty()
            ? EnumSet.of(
                PipeDocPart.PIPE_DOC_PART_CORE,
                PipeDocPart.PIPE_DOC_PART_BLOBS,
                PipeDocPart.PIPE_DOC_PART_CHUNKS,
                PipeDocPart.PIPE_DOC_PART_PARSED)
            : EnumSet.copyOf(required);
    List<PipeDocPart> missing = new ArrayList<>();
    boolean onlySettledSource = true;
    List<String> why = new ArrayList<>();
    for (PipeDocPart part : wanted) {
      List<PartManifestEntry> entries =
          manifest.getEntriesList().stream().filter(e -> e.getPart() == part).toList();
      String name = part.name().replace("PIPE_DOC_PART_", "");
      if (entries.isEmpty()) {
        missing.add(part);
        onlySettledSource = false;
        why.add(name + " has no manifest entry");
        continue;
      }
      boolean partMissing = false;
      for (PartManifestEntry e : entries) {
        if (e.getState() == PartState.PART_STATE_PRESENT
            || e.getState() == PartState.PART_STATE_EMPTY) {
          continue;
        }
        partMissing = true;
        boolean settled =
            e.getState() == PartState.PART_STATE_DELETED
                && part == PipeDocPart.PIPE_DOC_PART_BLOBS
                && DeletedReason.POST_PARSE_POLICY.wireValue().equals(e.getDeletedReason());
        if (!settled) {
          onlySettledSource = false;
        }
        String subKey = e.getSubKey().isEmpty() ? "" : " chunk set '" + e.getSubKey() + "'";
        why.add(
            name
                + subKey
                + " is "
                + e.getState().name().replace("PART_STATE_", "")
                + (e.getDeletedReason().isEmpty() ? "" : " (" + e.getDeletedReason() + ")"));
      }
      if (partMissing) {
        missing.add(part);
      }
    }
    if (missing.isEmpty()) {
      return new Verdict(
          ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE,
          missing,
          "every required part is present");
    }
    if (onlySettledSource) {
      return new Verdict(
          ReplayEligibility.REPLAY_ELIGIBILITY_SOURCE_RECEIPT,
          missing,
          String.join("; ", why)
              + ": the source was settled after indexing and must be fetched"
              + " again");
    }
    return new Verdict(
        ReplayEligibility.REPLAY_ELIGIBILITY_BODY_MISSING, missing, String.join("; ", why));
  }
}
