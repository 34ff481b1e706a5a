package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.WriteProvenance;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ManifestEditsTest {
  private static final Timestamp AT = Timestamp.newBuilder().setSeconds(1_800_000_000L).build();

  private final PipeDocPartCodec codec = new PipeDocPartCodec();
  private final PipeDocManifest manifest =
      codec.split(UUID.randomUUID(), SampleDocuments.full()).manifest();

  @Test
  void stampingSetsProvenanceEverywhereAndKeepsTheChecksumValid() {
    WriteProvenance by =
        WriteProvenance.newBuilder()
            .setModuleId("parser")
            .setGraphId("g")
            .setGraphVersion(2)
            .build();

    PipeDocManifest stamped = ManifestEdits.stamped(manifest, by, AT);

    assertThat(stamped.getUpdatedAt()).isEqualTo(AT);
    assertThat(stamped.getEntriesList())
        .allSatisfy(
            e -> {
              assertThat(e.getWrittenBy()).isEqualTo(by);
              assertThat(e.getUpdatedAt()).isEqualTo(AT);
            });
    assertThat(ManifestChecksum.matches(stamped)).isTrue();
    assertThat(stamped.getChecksum()).isEqualTo(manifest.getChecksum());
  }

  @Test
  void deletingKeepsHashAndSizeClearsTheKeyAndChangesTheChecksum() {
    PartManifestEntry before = manifest.getEntries(1);

    PipeDocManifest settled =
        ManifestEdits.deleted(
            manifest, PipeDocPart.PIPE_DOC_PART_BLOBS, "", DeletedReason.POST_PARSE_POLICY, AT);

    PartManifestEntry after = settled.getEntries(1);
    assertThat(after.getState()).isEqualTo(PartState.PART_STATE_DELETED);
    assertThat(after.getDeletedReason()).isEqualTo("POST_PARSE_POLICY");
    assertThat(after.getSha256()).isEqualTo(before.getSha256());
    assertThat(after.getSizeBytes()).isEqualTo(before.getSizeBytes());
    assertThat(after.getObjectKey()).isEmpty();
    assertThat(ManifestChecksum.matches(settled)).isTrue();
    assertThat(settled.getChecksum()).isNotEqualTo(manifest.getChecksum());
  }

  @Test
  void aDeletedPartIsLeftOutOfAssembly() {
    SplitDocument split = codec.split(UUID.randomUUID(), SampleDocuments.full());
    PipeDocManifest settled =
        ManifestEdits.deleted(
            split.manifest(), PipeDocPart.PIPE_DOC_PART_BLOBS, "", DeletedReason.RTBF, AT);

    PipeDoc read = codec.assemble(settled, split.bytesByObjectKey());

    assertThat(read).isEqualTo(SampleDocuments.full().toBuilder().clearBlobBag().build());
  }

  @Test
  void onlyAPresentPartThatExistsCanBeDeleted() {
    PipeDocManifest empty =
        codec.split(UUID.randomUUID(), PipeDoc.newBuilder().setDocId("d").build()).manifest();

    assertThatThrownBy(
            () ->
                ManifestEdits.deleted(
                    empty, PipeDocPart.PIPE_DOC_PART_BLOBS, "", DeletedReason.RTBF, AT))
        .hasMessageContaining("part BLOBS must be PRESENT to be deleted");
    assertThatThrownBy(
            () ->
                ManifestEdits.deleted(
                    manifest, PipeDocPart.PIPE_DOC_PART_CHUNKS, "nope", DeletedReason.RTBF, AT))
        .hasMessageContaining("part CHUNKS chunk set \"nope\" is not in the manifest");
  }
}
