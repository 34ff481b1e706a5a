package dev.protomolt.core.parts;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.WriteProvenance;

/**
 * The changes a stored manifest goes through after the split: stamping who wrote it and when, and
 * marking a part deleted while keeping its size and hash as provenance. Every edit recomputes the
 * manifest checksum, so a manifest never carries a stale one.
 */
public final class ManifestEdits {
  private ManifestEdits() {}

  /** Stamps every entry and the manifest with the write's time and provenance. */
  public static PipeDocManifest stamped(
      PipeDocManifest manifest, WriteProvenance writtenBy, Timestamp at) {
    PipeDocManifest.Builder builder = manifest.toBuilder().setUpdatedAt(at);
    for (int i = 0; i < builder.getEntriesCount(); i++) {
      builder.setEntries(
          i, builder.getEntries(i).toBuilder().setWrittenBy(writtenBy).setUpdatedAt(at));
    }
    return builder.setChecksum(ManifestChecksum.of(builder.getEntriesList())).build();
  }

  /**
   * Marks one PRESENT part (or chunk set, by sub key) DELETED: the object key is cleared because no
   * readable object remains, while size and SHA-256 stay as proof of what was there.
   *
   * @throws IllegalArgumentException naming the part when it is not in the manifest or not PRESENT
   */
  public static PipeDocManifest deleted(
      PipeDocManifest manifest,
      PipeDocPart part,
      String subKey,
      DeletedReason reason,
      Timestamp at) {
    PipeDocManifest.Builder builder = manifest.toBuilder();
    for (int i = 0; i < builder.getEntriesCount(); i++) {
      PartManifestEntry entry = builder.getEntries(i);
      if (entry.getPart() != part || !entry.getSubKey().equals(subKey)) {
        continue;
      }
      if (entry.getState() != PartState.PART_STATE_PRESENT) {
        throw new IllegalArgumentException(
            "part "
                + PartNames.shortName(part)
                + describe(subKey)
                + " must be PRESENT to be deleted, but is "
                + entry.getState());
      }
      builder.setEntries(
          i,
          entry.toBuilder()
              .setState(PartState.PART_STATE_DELETED)
              .setDeletedReason(reason.wireValue())
              .setUpdatedAt(at)
              .clearObjectKey());
      return builder
          .setUpdatedAt(at)
          .setChecksum(ManifestChecksum.of(builder.getEntriesList()))
          .build();
    }
    throw new IllegalArgumentException(
        "part "
            + PartNames.shortName(part)
            + describe(subKey)
            + " is not in the manifest of node "
            + manifest.getNodeId());
  }

  private static String describe(String subKey) {
    return subKey.isEmpty() ? "" : " chunk set \"" + subKey + "\"";
  }
}
