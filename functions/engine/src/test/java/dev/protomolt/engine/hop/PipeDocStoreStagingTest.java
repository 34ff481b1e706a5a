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
  void theStoreRefusesARightToBeForgottenDocumentNamingTheField() {
    PipeDoc forgettable = doc("d-3").toBuilder()
        .setOwnership(OwnershipContext.newBuilder().setRightToBeForgotten(true)).build();
    assertThatThrownBy(() -> staging.stage(forgettable, "acme", "g1", "parse", true))
        .isInstanceOf(PipeDocStoreException.InvalidRequest.class)
        .hasMessageContaining("right_to_be_forgotten");
  }

  private static PipeDoc doc(String id) {
    return PipeDoc.newBuilder().setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t").setLanguage("en"))
        .setBlobBag(BlobBag.newBuilder().setBlob(Blob.newBuilder().setBlobId("b")
            .setData(ByteString.copyFromUtf8("raw bytes")).setMimeType("text/plain")))
        .build();
  }
}
