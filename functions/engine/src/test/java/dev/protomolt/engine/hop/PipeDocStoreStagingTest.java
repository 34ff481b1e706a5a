package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The hop services' staging port over the real document store (S3Proxy + embedded PostgreSQL). */
class PipeDocStoreStagingTest {

  private static StoreHarness harness;
  private static PipeDocStoreStaging staging;

  @BeforeAll
  static void start() {
    harness = StoreHarness.start();
    harness.store.onAccountEvent(StoreHarness.platformAccount("acme"));
    staging = new PipeDocStoreStaging(harness.store);
  }

  @AfterAll
  static void stop() throws Exception {
    harness.close();
  }

  @Test
  void persistStagingKeepsTheCopyAndLevelTwoAloneFetchesBlobBytes() {
    PipeDoc doc = doc("d-1");
    DocumentReference ref = staging.stage(doc, "acme", "g1", "parse", true);

    assertThat(ref.getKeep()).isTrue();
    assertThat(ref.getGraphAddressId()).isEqualTo("parse");
    assertThat(staging.hydrate(ref, Set.of(), true)).isEqualTo(doc);
    PipeDoc level1 = staging.hydrate(ref, Set.of(), false);
    assertThat(level1.hasBlobBag()).as("no blob bytes without level 2").isFalse();
    assertThat(level1.getSearchMetadata()).isEqualTo(doc.getSearchMetadata());
    PipeDoc masked = staging.hydrate(ref, Set.of(PipeDocPart.PIPE_DOC_PART_CORE), false);
    assertThat(masked.getSearchMetadata().getTitle()).isEqualTo("t");
  }

  @Test
  void aCacheCopyIsNotKeptAndIsGoneOnceReclaimed() {
    DocumentReference ref = staging.stage(doc("d-2"), "acme", "g1", "side", false);
    assertThat(ref.getKeep()).isFalse();
    assertThat(staging.hydrate(ref, Set.of(), false).getDocId()).isEqualTo("d-2");

    staging.reclaim(ref);

    assertThatThrownBy(() -> staging.hydrate(ref, Set.of(), false))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
  }

  @Test
  void aChangedBodyWritesOnlyTheChangedPartsAndCarriesTheRest() {
    DocumentReference source = staging.stage(doc("d-4"), "acme", "g1", "parse", true);
    PipeDoc retitled =
        doc("d-4").toBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setTitle("parsed").setLanguage("en"))
            .build();

    DocumentReference next = staging.stageFrom(source, retitled, "acme", "g1", "chunk", true);

    assertThat(next.getGraphAddressId()).isEqualTo("chunk");
    assertThat(carried(next, PipeDocPart.PIPE_DOC_PART_CORE)).as("CORE changed: written").isFalse();
    assertThat(carried(next, PipeDocPart.PIPE_DOC_PART_BLOBS))
        .as("BLOBS unchanged: copied")
        .isTrue();
    assertThat(staging.hydrate(next, Set.of(), true)).isEqualTo(retitled);
    assertThat(staging.hydrate(source, Set.of(), true))
        .as("the source is untouched")
        .isEqualTo(doc("d-4"));
  }

  @Test
  void anUnchangedBodyStillGetsItsOwnCopyPerDestination() {
    DocumentReference source = staging.stage(doc("d-5"), "acme", "g1", "parse", true);

    DocumentReference archive =
        staging.stageFrom(source, doc("d-5"), "acme", "g1", "archive", true);
    DocumentReference side = staging.stageFrom(source, doc("d-5"), "acme", "g1", "side", false);

    assertThat(archive).isNotEqualTo(side);
    assertThat(carried(archive, PipeDocPart.PIPE_DOC_PART_BLOBS)).isTrue();
    assertThat(carried(side, PipeDocPart.PIPE_DOC_PART_BLOBS)).isTrue();
    staging.reclaim(side);
    assertThat(staging.hydrate(archive, Set.of(), true))
        .as("siblings share no body")
        .isEqualTo(doc("d-5"));
  }

  @Test
  void aSourceThatIsGoneGetsAFullSave() {
    DocumentReference source = staging.stage(doc("d-6"), "acme", "g1", "side", false);
    staging.reclaim(source);

    DocumentReference next = staging.stageFrom(source, doc("d-6"), "acme", "g1", "chunk", true);

    assertThat(carried(next, PipeDocPart.PIPE_DOC_PART_BLOBS)).isFalse();
    assertThat(staging.hydrate(next, Set.of(), true)).isEqualTo(doc("d-6"));
  }

  private static boolean carried(DocumentReference ref, PipeDocPart part) {
    return harness
        .store
        .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build())
        .getManifest()
        .getEntriesList()
        .stream()
        .filter(e -> e.getPart() == part)
        .findFirst()
        .orElseThrow()
        .getWrittenBy()
        .getCarriedForward();
  }

  @Test
  void theStoreRefusesARightToBeForgottenDocumentNamingTheField() {
    PipeDoc forgettable =
        doc("d-3").toBuilder()
            .setOwnership(OwnershipContext.newBuilder().setRightToBeForgotten(true))
            .build();
    assertThatThrownBy(() -> staging.stage(forgettable, "acme", "g1", "parse", true))
        .isInstanceOf(PipeDocStoreException.InvalidRequest.class)
        .hasMessageContaining("right_to_be_forgotten");
  }

  private static PipeDoc doc(String id) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t").setLanguage("en"))
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId("b")
                        .setData(ByteString.copyFromUtf8("raw bytes"))
                        .setMimeType("text/plain")))
        .build();
  }
}
