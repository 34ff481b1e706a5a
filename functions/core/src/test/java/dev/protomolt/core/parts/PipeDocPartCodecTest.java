package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PipeDocPartCodecTest {
  private static final UUID NODE = UUID.fromString("6f543de9-66ea-3bd2-8000-000000000001");

  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  @Test
  void fullDocumentRoundTripsByteForByte() {
    PipeDoc doc = SampleDocuments.full();
    byte[] original = doc.toByteArray();

    SplitDocument split = codec.split(NODE, doc);

    assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey())).isEqualTo(original);
    assertThat(codec.assemble(split.manifest(), split.bytesByObjectKey())).isEqualTo(doc);
  }

  @Test
  void manifestListsCoreBlobsParsedThenChunkSetsInDocumentOrder() {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());

    assertThat(split.manifest().getEntriesList())
        .extracting(
            e -> PartNames.shortName(e.getPart()) + ":" + e.getSubKey() + ":" + e.getOrdinal())
        .containsExactly(
            "CORE::0",
            "BLOBS::0",
            "PARSED::0",
            "CHUNKS:sentences-v1:0",
            "CHUNKS:paragraphs:1",
            "CHUNKS:#blank:2",
            "CHUNKS:#blank#2:3",
            "CHUNKS:sentences-v1#2:4");
    assertThat(split.manifest().getNodeId()).isEqualTo(NODE.toString());
    assertThat(split.manifest().getDocId()).isEqualTo(SampleDocuments.full().getDocId());
    assertThat(split.manifest().getCodecVersion()).isEqualTo(PipeDocPartCodec.CODEC_VERSION);
    assertThat(split.manifest().getChecksum()).isEqualTo(ManifestChecksum.of(split.manifest()));
    for (PartManifestEntry entry : split.manifest().getEntriesList()) {
      assertThat(entry.getState()).isEqualTo(PartState.PART_STATE_PRESENT);
      assertThat(entry.getObjectKey())
          .startsWith(NODE + "/")
          .doesNotContain("s3:")
          .doesNotContain("bucket");
    }
  }

  @Test
  void eachFragmentIsAPipeDocCarryingOnlyItsPartAndTheDocId() throws Exception {
    PipeDoc doc = SampleDocuments.full();
    SplitDocument split = codec.split(NODE, doc);

    PipeDoc core =
        PipeDoc.parseFrom(split.fragment(PipeDocPart.PIPE_DOC_PART_CORE).orElseThrow().bytes());
    assertThat(core.getDocId()).isEqualTo(doc.getDocId());
    assertThat(core.hasBlobBag()).isFalse();
    assertThat(core.getParsedMetadataCount()).isZero();
    assertThat(core.getSearchMetadata().getSemanticResultsCount()).isZero();
    assertThat(core.getSearchMetadata().getTitle()).isEqualTo("Quarterly report");
    assertThat(core.getUnknownFields().hasField(99)).isTrue();
    assertThat(core.getSearchMetadata().getUnknownFields().hasField(40)).isTrue();

    PipeDoc blobs =
        PipeDoc.parseFrom(split.fragment(PipeDocPart.PIPE_DOC_PART_BLOBS).orElseThrow().bytes());
    assertThat(blobs)
        .isEqualTo(
            PipeDoc.newBuilder().setDocId(doc.getDocId()).setBlobBag(doc.getBlobBag()).build());

    PipeDoc parsed =
        PipeDoc.parseFrom(split.fragment(PipeDocPart.PIPE_DOC_PART_PARSED).orElseThrow().bytes());
    assertThat(parsed.getParsedMetadataMap().keySet()).containsExactly("tika", "docling");
    assertThat(parsed.hasSearchMetadata()).isFalse();

    PipeDoc repeatedRun = PipeDoc.parseFrom(split.chunkSet("sentences-v1#2").orElseThrow().bytes());
    assertThat(repeatedRun.getSearchMetadata().getSemanticResultsList())
        .containsExactly(doc.getSearchMetadata().getSemanticResults(5));
    assertThat(repeatedRun.getSearchMetadata().toBuilder().clearSemanticResults().build())
        .isEqualTo(SearchMetadata.getDefaultInstance());
  }

  @Test
  void emptyPartsWriteNoObjectAndRecordEmptyEntries() {
    PipeDoc doc = PipeDoc.newBuilder().setDocId("only-id").build();

    SplitDocument split = codec.split(NODE, doc);

    assertThat(split.fragments())
        .extracting(PartFragment::part)
        .containsExactly(PipeDocPart.PIPE_DOC_PART_CORE);
    assertThat(split.manifest().getEntriesList())
        .extracting(PartManifestEntry::getState)
        .containsExactly(
            PartState.PART_STATE_PRESENT,
            PartState.PART_STATE_EMPTY,
            PartState.PART_STATE_EMPTY,
            PartState.PART_STATE_EMPTY);
    assertThat(split.manifest().getEntries(3).getObjectKey()).isEmpty();
    assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey()))
        .isEqualTo(doc.toByteArray());
  }

  @Test
  void presenceOfEmptySubMessagesSurvives() {
    PipeDoc emptyPresent =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setSearchMetadata(SearchMetadata.getDefaultInstance())
            .setBlobBag(BlobBag.getDefaultInstance())
            .build();
    PipeDoc chunksOnly =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setSearchMetadata(
                SearchMetadata.newBuilder().addSemanticResults(SampleDocuments.result("r", 1)))
            .build();

    for (PipeDoc doc : List.of(emptyPresent, chunksOnly)) {
      SplitDocument split = codec.split(NODE, doc);
      assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey()))
          .isEqualTo(doc.toByteArray());
    }
    PipeDoc chunksOnlyCore =
        codec.assemble(
            codec.split(NODE, chunksOnly).manifest(),
            codec.split(NODE, chunksOnly).bytesByObjectKey(),
            PartMask.of(PipeDocPart.PIPE_DOC_PART_CORE));
    assertThat(chunksOnlyCore.hasSearchMetadata()).isFalse();
  }

  @Test
  void maskedAssemblyReturnsOnlyTheRequestedParts() {
    PipeDoc doc = SampleDocuments.full();
    SplitDocument split = codec.split(NODE, doc);
    Map<String, byte[]> onlyParsed =
        Map.of(
            split.fragment(PipeDocPart.PIPE_DOC_PART_PARSED).orElseThrow().objectKey(),
            split.fragment(PipeDocPart.PIPE_DOC_PART_PARSED).orElseThrow().bytes());

    PipeDoc parsed =
        codec.assemble(split.manifest(), onlyParsed, PartMask.of(PipeDocPart.PIPE_DOC_PART_PARSED));

    assertThat(parsed)
        .isEqualTo(
            PipeDoc.newBuilder()
                .setDocId(doc.getDocId())
                .putAllParsedMetadata(doc.getParsedMetadataMap())
                .build());

    PipeDoc oneSet =
        codec.assemble(
            split.manifest(),
            split.bytesByObjectKey(),
            new PartMask(Set.of(PipeDocPart.PIPE_DOC_PART_CHUNKS), Set.of("paragraphs")));
    assertThat(oneSet.getSearchMetadata().getSemanticResultsList())
        .containsExactly(doc.getSearchMetadata().getSemanticResults(2));
  }

  @Test
  void documentBytesInAnotherOrderAssembleToTheCanonicalForm() throws Exception {
    PipeDoc doc = SampleDocuments.full();
    // doc_id written last: a valid PipeDoc that protobuf-java itself would never write.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeMessage(2, doc.getSearchMetadata());
    coded.writeString(1, doc.getDocId());
    coded.flush();
    byte[] reordered = out.toByteArray();
    PipeDoc expected = PipeDoc.parseFrom(reordered);

    SplitDocument split = codec.split(ObjectKeys.forNode(NODE), reordered);
    byte[] assembled = codec.assembleBytes(split.manifest(), split.bytesByObjectKey());

    assertThat(PipeDocPartCodec.isCanonical(reordered)).isFalse();
    assertThat(PipeDocPartCodec.isCanonical(doc.toByteArray())).isTrue();
    assertThat(assembled).isEqualTo(expected.toByteArray());
    assertThat(PipeDoc.parseFrom(assembled)).isEqualTo(expected);
  }

  @Test
  void unreadableDocumentBytesAreRefused() {
    assertThatThrownBy(() -> codec.split(ObjectKeys.forNode(NODE), new byte[] {0x0a, 0x05, 'a'}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a valid PipeDoc");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void truncatedFragmentIsRefusedNamingThePart(AssemblyPath path) {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    PartFragment blobs = split.fragment(PipeDocPart.PIPE_DOC_PART_BLOBS).orElseThrow();
    Map<String, byte[]> bytes = new HashMap<>(split.bytesByObjectKey());
    bytes.put(blobs.objectKey(), Arrays.copyOf(blobs.bytes(), blobs.bytes().length - 1));

    assertThatThrownBy(() -> path.assemble(codec, split.manifest(), bytes))
        .isInstanceOfSatisfying(
            FragmentRejectedException.class,
            e -> {
              assertThat(e.part()).isEqualTo(PipeDocPart.PIPE_DOC_PART_BLOBS);
              assertThat(e.reason()).isEqualTo(FragmentRejectedException.Reason.DIGEST_MISMATCH);
            })
        .hasMessageContaining("part BLOBS")
        .hasMessageContaining("truncated");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void corruptChunkFragmentIsRefusedNamingThePartAndChunkSet(AssemblyPath path) {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    PartFragment set = split.chunkSet("paragraphs").orElseThrow();
    byte[] flipped = set.bytes().clone();
    flipped[flipped.length / 2] ^= 0x40;
    Map<String, byte[]> bytes = new HashMap<>(split.bytesByObjectKey());
    bytes.put(set.objectKey(), flipped);

    assertThatThrownBy(() -> path.assemble(codec, split.manifest(), bytes))
        .isInstanceOf(FragmentRejectedException.class)
        .hasMessageContaining("part CHUNKS chunk set \"paragraphs\"")
        .hasMessageContaining("SHA-256");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void missingFragmentIsRefusedNamingThePart(AssemblyPath path) {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    Map<String, byte[]> bytes = new HashMap<>(split.bytesByObjectKey());
    bytes.remove(split.fragment(PipeDocPart.PIPE_DOC_PART_PARSED).orElseThrow().objectKey());

    assertThatThrownBy(() -> path.assemble(codec, split.manifest(), bytes))
        .isInstanceOfSatisfying(
            FragmentRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(FragmentRejectedException.Reason.MISSING))
        .hasMessageContaining("part PARSED");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void unparseableFragmentWithMatchingDigestIsRefused(AssemblyPath path) {
    // A manifest entry that vouches for garbage (e.g. written by a broken writer) still fails
    // loudly.
    byte[] garbage = {0x0a, 0x7f, 0x01};
    PipeDocManifest manifest = manifestWithCoreBytes(garbage);

    assertThatThrownBy(() -> path.assemble(codec, manifest, Map.of("n/core.pb", garbage)))
        .isInstanceOfSatisfying(
            FragmentRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(FragmentRejectedException.Reason.UNPARSEABLE))
        .hasMessageContaining("part CORE");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void fragmentCarryingAnotherPartsFieldsIsRefused(AssemblyPath path) {
    byte[] coreWithBlob =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setBlobBag(BlobBag.getDefaultInstance())
            .build()
            .toByteArray();
    PipeDocManifest manifest = manifestWithCoreBytes(coreWithBlob);

    assertThatThrownBy(() -> path.assemble(codec, manifest, Map.of("n/core.pb", coreWithBlob)))
        .isInstanceOfSatisfying(
            FragmentRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(FragmentRejectedException.Reason.WRONG_CONTENT))
        .hasMessageContaining("part CORE")
        .hasMessageContaining("blob_bag");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void fragmentOfAnotherDocumentIsRefused(AssemblyPath path) {
    byte[] other = PipeDoc.newBuilder().setDocId("someone-else").build().toByteArray();
    PipeDocManifest manifest = manifestWithCoreBytes(other);

    assertThatThrownBy(() -> path.assemble(codec, manifest, Map.of("n/core.pb", other)))
        .isInstanceOf(FragmentRejectedException.class)
        .hasMessageContaining("doc_id \"someone-else\"");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void chunkFragmentWithForeignResultIdIsRefused(AssemblyPath path) {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    PartFragment paragraphs = split.chunkSet("paragraphs").orElseThrow();
    PartFragment sentences = split.chunkSet("sentences-v1").orElseThrow();
    // Point the "paragraphs" entry at the sentences bytes, digest and all.
    PipeDocManifest.Builder manifest = split.manifest().toBuilder();
    for (int i = 0; i < manifest.getEntriesCount(); i++) {
      if (manifest.getEntries(i).getSubKey().equals("paragraphs")) {
        manifest.setEntries(
            i,
            manifest.getEntries(i).toBuilder()
                .setSha256(sentences.sha256())
                .setSizeBytes(sentences.sizeBytes()));
      }
    }
    Map<String, byte[]> bytes = new HashMap<>(split.bytesByObjectKey());
    bytes.put(paragraphs.objectKey(), sentences.bytes());

    assertThatThrownBy(() -> path.assemble(codec, manifest.build(), bytes))
        .isInstanceOf(FragmentRejectedException.class)
        .hasMessageContaining("chunk set \"paragraphs\"")
        .hasMessageContaining("result_id \"sentences-v1\"");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void presentEntryWithBlankObjectKeyIsRefused(AssemblyPath path) {
    PipeDocManifest manifest =
        manifestWithCoreBytes(new byte[0]).toBuilder()
            .setEntries(
                0, manifestWithCoreBytes(new byte[0]).getEntries(0).toBuilder().setObjectKey(""))
            .build();

    assertThatThrownBy(() -> path.assemble(codec, manifest, Map.of()))
        .isInstanceOfSatisfying(
            FragmentRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(FragmentRejectedException.Reason.BAD_ENTRY))
        .hasMessageContaining("blank object_key");
  }

  @Test
  void unknownFieldsAtEveryLevelSurvive() throws Exception {
    UnknownFieldSet unknown =
        UnknownFieldSet.newBuilder()
            .addField(1000, UnknownFieldSet.Field.newBuilder().addFixed64(42).addVarint(3).build())
            .addField(77, UnknownFieldSet.Field.newBuilder().addFixed32(9).build())
            // A proto2-style group, which a scanner must skip as one field.
            .addField(
                88,
                UnknownFieldSet.Field.newBuilder()
                    .addGroup(
                        UnknownFieldSet.newBuilder()
                            .addField(1, UnknownFieldSet.Field.newBuilder().addVarint(5).build())
                            .build())
                    .build())
            // A known number (ownership, 6) with the wrong wire type stays unknown and last.
            .addField(6, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
            .build();
    PipeDoc base = SampleDocuments.full();
    PipeDoc doc =
        base.toBuilder()
            .setUnknownFields(unknown)
            .setBlobBag(base.getBlobBag().toBuilder().setUnknownFields(unknown))
            .setSearchMetadata(
                base.getSearchMetadata().toBuilder()
                    .setSemanticResults(
                        0,
                        base.getSearchMetadata().getSemanticResults(0).toBuilder()
                            .setUnknownFields(unknown)))
            .build();
    byte[] original = doc.toByteArray();

    SplitDocument split = codec.split(NODE, doc);

    assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey())).isEqualTo(original);
    assertThat(
            PipeDoc.parseFrom(split.fragment(PipeDocPart.PIPE_DOC_PART_BLOBS).orElseThrow().bytes())
                .getBlobBag()
                .getUnknownFields())
        .isEqualTo(unknown);
  }

  @Test
  void largeBlobRoundTrips() {
    byte[] data = new byte[3 << 20];
    new Random(7).nextBytes(data);
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("big")
            .setBlobBag(
                BlobBag.newBuilder().setBlob(Blob.newBuilder().setData(ByteString.copyFrom(data))))
            .build();

    SplitDocument split = codec.split(NODE, doc);

    assertThat(Sha256Hex.of(codec.assembleBytes(split.manifest(), split.bytesByObjectKey())))
        .isEqualTo(Sha256Hex.of(doc.toByteArray()));
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void coreFragmentCarryingChunksIsRefused(AssemblyPath path) {
    byte[] coreWithChunks =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setSearchMetadata(
                SearchMetadata.newBuilder()
                    .setTitle("t")
                    .addSemanticResults(SampleDocuments.result("r", 1)))
            .build()
            .toByteArray();
    PipeDocManifest manifest = manifestWithCoreBytes(coreWithChunks);

    assertThatThrownBy(() -> path.assemble(codec, manifest, Map.of("n/core.pb", coreWithChunks)))
        .isInstanceOf(FragmentRejectedException.class)
        .hasMessageContaining("part CORE")
        .hasMessageContaining("search_metadata.semantic_results");
  }

  @ParameterizedTest
  @EnumSource(AssemblyPath.class)
  void blobsFragmentCarryingUnknownFieldsIsRefused(AssemblyPath path) {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    PartFragment blobs = split.fragment(PipeDocPart.PIPE_DOC_PART_BLOBS).orElseThrow();
    byte[] tampered =
        PipeDoc.newBuilder(parse(blobs.bytes()))
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(500, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
                    .build())
            .build()
            .toByteArray();
    PipeDocManifest.Builder manifest = split.manifest().toBuilder();
    manifest.setEntries(
        1,
        manifest.getEntries(1).toBuilder()
            .setSizeBytes(tampered.length)
            .setSha256(Sha256Hex.of(tampered)));
    Map<String, byte[]> bytes = new HashMap<>(split.bytesByObjectKey());
    bytes.put(blobs.objectKey(), tampered);

    assertThatThrownBy(() -> path.assemble(codec, manifest.build(), bytes))
        .isInstanceOf(FragmentRejectedException.class)
        .hasMessageContaining("part BLOBS")
        .hasMessageContaining("unknown field");
  }

  @Test
  void maskedByteAssemblyEqualsTheMaskedDocumentSerialized() {
    SplitDocument split = codec.split(NODE, SampleDocuments.full());
    for (PartMask mask :
        List.of(
            PartMask.of(PipeDocPart.PIPE_DOC_PART_CORE),
            PartMask.of(PipeDocPart.PIPE_DOC_PART_CHUNKS, PipeDocPart.PIPE_DOC_PART_PARSED),
            PartMask.of(PipeDocPart.PIPE_DOC_PART_BLOBS),
            new PartMask(
                Set.of(PipeDocPart.PIPE_DOC_PART_CHUNKS, PipeDocPart.PIPE_DOC_PART_CORE),
                Set.of("#blank#2", "sentences-v1")))) {
      assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey(), mask))
          .as("mask %s", mask)
          .isEqualTo(
              codec.assemble(split.manifest(), split.bytesByObjectKey(), mask).toByteArray());
    }
  }

  private static PipeDoc parse(byte[] bytes) {
    try {
      return PipeDoc.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  /** Both assembly paths must refuse the same input the same way. */
  enum AssemblyPath {
    MESSAGE_MERGE {
      @Override
      Object assemble(PipeDocPartCodec codec, PipeDocManifest manifest, Map<String, byte[]> bytes) {
        return codec.assemble(manifest, bytes);
      }
    },
    BYTE_SPLICE {
      @Override
      Object assemble(PipeDocPartCodec codec, PipeDocManifest manifest, Map<String, byte[]> bytes) {
        return codec.assembleBytes(manifest, bytes);
      }
    };

    abstract Object assemble(
        PipeDocPartCodec codec, PipeDocManifest manifest, Map<String, byte[]> bytes);
  }

  private static PipeDocManifest manifestWithCoreBytes(byte[] bytes) {
    return PipeDocManifest.newBuilder()
        .setNodeId("n")
        .setDocId("d")
        .addEntries(
            PartManifestEntry.newBuilder()
                .setPart(PipeDocPart.PIPE_DOC_PART_CORE)
                .setState(PartState.PART_STATE_PRESENT)
                .setObjectKey("n/core.pb")
                .setSizeBytes(bytes.length)
                .setSha256(Sha256Hex.of(bytes)))
        .build();
  }
}
