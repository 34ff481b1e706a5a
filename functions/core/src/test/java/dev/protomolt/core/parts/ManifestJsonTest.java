package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.WriteProvenance;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ManifestJsonTest {
  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  private PipeDocManifest stampedManifest() {
    PipeDocManifest manifest = codec.split(UUID.randomUUID(), SampleDocuments.full()).manifest();
    return manifest.toBuilder()
        .setEntries(
            1,
            manifest.getEntries(1).toBuilder()
                .setState(PartState.PART_STATE_DELETED)
                .setDeletedReason("POST_PARSE_POLICY")
                .setUpdatedAt(Timestamp.newBuilder().setSeconds(1_800_000_000L))
                .setWrittenBy(
                    WriteProvenance.newBuilder()
                        .setModuleId("tika")
                        .setGraphId("g")
                        .setGraphVersion(3)
                        .setCarriedForward(true)))
        .build();
  }

  @Test
  void manifestRoundTripsThroughJsonWithProtoFieldNames() {
    PipeDocManifest manifest = stampedManifest();

    String json = ManifestJson.toJson(manifest);

    assertThat(json)
        .contains(
            "\"object_key\"", "\"sub_key\"", "\"PART_STATE_DELETED\"", "\"POST_PARSE_POLICY\"");
    assertThat(ManifestJson.fromJson(json)).isEqualTo(manifest);
  }

  @Test
  void unknownFieldsInStoredJsonAreIgnored() {
    String json =
        "{\"node_id\":\"n\",\"doc_id\":\"d\",\"from_the_future\":{\"x\":1},"
            + "\"entries\":[{\"part\":\"PIPE_DOC_PART_CORE\",\"state\":\"PART_STATE_PRESENT\","
            + "\"object_key\":\"n/core.pb\",\"size_bytes\":\"12\",\"new_field\":true}]}";

    PipeDocManifest manifest = ManifestJson.fromJson(json);

    assertThat(manifest.getEntries(0).getPart()).isEqualTo(PipeDocPart.PIPE_DOC_PART_CORE);
    assertThat(manifest.getEntries(0).getSizeBytes()).isEqualTo(12);
  }

  @Test
  void malformedJsonIsRefusedWithTheReason() {
    assertThatThrownBy(() -> ManifestJson.fromJson("{\"entries\": 3}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a valid PipeDocManifest");
    assertThatThrownBy(() -> ManifestJson.fromJson("{\"entries\": ["))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ManifestJson.fromJson(" ")).hasMessageContaining("must not be blank");
  }

  @Test
  void checksumComesFromEntriesAloneAndTracksContentAndState() {
    PipeDocManifest manifest = codec.split(UUID.randomUUID(), SampleDocuments.full()).manifest();
    PipeDocManifest elsewhere = codec.split(UUID.randomUUID(), SampleDocuments.full()).manifest();
    PipeDocManifest stamped =
        manifest.toBuilder()
            .setUpdatedAt(Timestamp.newBuilder().setSeconds(9))
            .setEntries(
                0,
                manifest.getEntries(0).toBuilder()
                    .setWrittenBy(WriteProvenance.newBuilder().setModuleId("m")))
            .build();
    PipeDocManifest deleted =
        manifest.toBuilder()
            .setEntries(
                1, manifest.getEntries(1).toBuilder().setState(PartState.PART_STATE_DELETED))
            .build();
    PipeDocManifest otherHash =
        manifest.toBuilder()
            .setEntries(1, manifest.getEntries(1).toBuilder().setSha256("00"))
            .build();

    // Same content stored under another node id (other keys) has the same checksum.
    assertThat(ManifestChecksum.of(elsewhere)).isEqualTo(ManifestChecksum.of(manifest));
    assertThat(ManifestChecksum.of(stamped)).isEqualTo(ManifestChecksum.of(manifest));
    assertThat(ManifestChecksum.of(deleted)).isNotEqualTo(ManifestChecksum.of(manifest));
    assertThat(ManifestChecksum.of(otherHash)).isNotEqualTo(ManifestChecksum.of(manifest));
    assertThat(ManifestChecksum.matches(manifest)).isTrue();
    assertThat(ManifestChecksum.matches(otherHash)).isFalse();
  }

  @Test
  void checksumFieldsCannotBleedIntoEachOther() {
    PartManifestEntry a =
        PartManifestEntry.newBuilder()
            .setPart(PipeDocPart.PIPE_DOC_PART_CHUNKS)
            .setSubKey("ab")
            .setSha256("c")
            .build();
    PartManifestEntry b = a.toBuilder().setSubKey("a").setSha256("bc").build();

    assertThat(ManifestChecksum.of(List.of(a))).isNotEqualTo(ManifestChecksum.of(List.of(b)));
  }
}
