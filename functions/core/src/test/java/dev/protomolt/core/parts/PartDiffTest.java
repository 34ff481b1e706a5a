package dev.protomolt.core.parts;

import static dev.protomolt.core.parts.SampleDocuments.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PartDiffTest {
  private static final UUID STORED = UUID.fromString("00000000-0000-3000-8000-000000000001");
  private static final UUID NEXT = UUID.fromString("00000000-0000-3000-8000-000000000002");

  private final PipeDocPartCodec codec = new PipeDocPartCodec();
  private final PipeDoc original = SampleDocuments.full();
  private final PipeDocManifest stored = codec.split(STORED, original).manifest();

  private PartChanges diff(PipeDoc next, PartMask observed) {
    return codec.observe(stored, next, ObjectKeys.forNode(NEXT), observed).changes();
  }

  @Test
  void anUnchangedDocumentWritesNothingEvenUnderANewNodeId() {
    PartChanges changes = diff(original, PartMask.ALL);

    assertThat(changes.unchanged()).isTrue();
    assertThat(changes.chunkSetsWritten()).isEmpty();
  }

  @Test
  void changingATitleWritesOnlyCore() {
    PipeDoc next =
        original.toBuilder()
            .setSearchMetadata(original.getSearchMetadata().toBuilder().setTitle("New title"))
            .build();

    PartChanges changes = diff(next, PartMask.ALL);

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_CORE);
  }

  @Test
  void appendingAChunkSetWritesOnlyThatSet() {
    PipeDoc next =
        original.toBuilder()
            .setSearchMetadata(
                original.getSearchMetadata().toBuilder()
                    .addSemanticResults(result("embeddings-minilm", 2)))
            .build();

    PartChanges changes = diff(next, PartMask.ALL);

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    assertThat(changes.chunkSetsWritten()).containsExactly("embeddings-minilm");
    assertThat(changes.chunkSetsRemoved()).isEmpty();
    assertThat(changes.chunkOrderChanged()).isFalse();
  }

  @Test
  void droppingAChunkSetIsReportedAsRemoved() {
    SearchMetadata.Builder sm = original.getSearchMetadata().toBuilder().removeSemanticResults(2);
    PartChanges changes = diff(original.toBuilder().setSearchMetadata(sm).build(), PartMask.ALL);

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    assertThat(changes.chunkSetsRemoved()).containsExactly("paragraphs");
    assertThat(changes.chunkSetsWritten()).isEmpty();
  }

  @Test
  void reorderingChunkSetsIsAChunksChangeWithoutNewBytes() {
    SearchMetadata sm = original.getSearchMetadata();
    SearchMetadata.Builder swapped =
        sm.toBuilder()
            .clearSemanticResults()
            .addSemanticResults(sm.getSemanticResults(2))
            .addSemanticResults(sm.getSemanticResults(0))
            .addSemanticResults(sm.getSemanticResults(1))
            .addAllSemanticResults(
                sm.getSemanticResultsList().subList(3, sm.getSemanticResultsCount()));

    PartChanges changes =
        diff(original.toBuilder().setSearchMetadata(swapped).build(), PartMask.ALL);

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    assertThat(changes.chunkOrderChanged()).isTrue();
    assertThat(changes.chunkSetsWritten()).isEmpty();
  }

  @Test
  void aPartTheWriterNeverReadIsCarriedForwardNotErased() {
    PipeDoc withoutBlobs = original.toBuilder().clearBlobBag().clearParsedMetadata().build();

    PartChanges masked =
        diff(
            withoutBlobs,
            PartMask.of(PipeDocPart.PIPE_DOC_PART_CORE, PipeDocPart.PIPE_DOC_PART_CHUNKS));
    PartChanges full = diff(withoutBlobs, PartMask.ALL);

    assertThat(masked.unchanged()).isTrue();
    assertThat(full.partsWritten())
        .containsExactlyInAnyOrder(
            PipeDocPart.PIPE_DOC_PART_BLOBS, PipeDocPart.PIPE_DOC_PART_PARSED);
  }

  @Test
  void aPartAddedOutsideTheMaskIsStillWritten() {
    PipeDoc next =
        original.toBuilder()
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(Blob.newBuilder().setData(ByteString.copyFromUtf8("replaced"))))
            .build();

    PartChanges changes = diff(next, PartMask.of(PipeDocPart.PIPE_DOC_PART_CORE));

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_BLOBS);
  }

  @Test
  void aDeletedStoredPartIsRewrittenBecauseItsBytesAreGone() {
    PipeDocManifest settled =
        stored.toBuilder()
            .setEntries(1, stored.getEntries(1).toBuilder().setState(PartState.PART_STATE_DELETED))
            .build();

    PartChanges changes =
        codec.observe(settled, original, ObjectKeys.forNode(NEXT), PartMask.ALL).changes();

    assertThat(changes.partsWritten()).containsExactly(PipeDocPart.PIPE_DOC_PART_BLOBS);
  }
}
