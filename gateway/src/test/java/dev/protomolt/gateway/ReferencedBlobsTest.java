package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.Blobs;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.s3.S3BlobStore;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Level 2 hydration of storage-referenced blobs against S3Proxy and PostgreSQL (decision 0952). */
class ReferencedBlobsTest {

  static StoreHarness h;
  static ReferencedBlobs referenced;
  static final byte[] BYTES = "uploaded by a customer".getBytes(StandardCharsets.UTF_8);

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount("acme"));
    S3BlobStore blobs = new S3BlobStore(h.clients);
    blobs.put(
        new ObjectAddress(h.drives.findByName("acme:intake").orElseThrow(), "acme/intake/ds/a.txt"),
        BYTES,
        true);
    referenced = new ReferencedBlobs(h.drives, blobs);
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  static Blob ref(String drive, String key) {
    return Blob.newBuilder()
        .setBlobId("original")
        .setFilename("a.txt")
        .setStorageRef(FileStorageReference.newBuilder().setDriveName(drive).setObjectKey(key))
        .build();
  }

  @Test
  void aReferencedBlobArrivesWithItsBytesAndKeepsItsOtherFields() {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("d1")
            .setBlobBag(BlobBag.newBuilder().setBlob(ref("acme:intake", "acme/intake/ds/a.txt")))
            .build();
    Blob inlined = referenced.inline(doc).getBlobBag().getBlob();
    assertThat(inlined.getData().toByteArray()).isEqualTo(BYTES);
    assertThat(inlined.getFilename()).isEqualTo("a.txt");
    assertThat(inlined.getBlobId()).isEqualTo("original");
  }

  @Test
  void everyBlobOfAListIsResolvedAndInlineBlobsAreLeftAlone() {
    Blob inline =
        Blob.newBuilder().setBlobId("b").setData(ByteString.copyFromUtf8("already here")).build();
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("d2")
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlobs(
                        Blobs.newBuilder()
                            .addBlob(inline)
                            .addBlob(ref("acme:intake", "acme/intake/ds/a.txt"))))
            .build();
    var list = referenced.inline(doc).getBlobBag().getBlobs().getBlobList();
    assertThat(list.get(0)).isEqualTo(inline);
    assertThat(list.get(1).getData().toByteArray()).isEqualTo(BYTES);
  }

  @Test
  void anUnknownDriveIsAPermanentFailureNamingTheField() {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("d3")
            .setBlobBag(BlobBag.newBuilder().setBlob(ref("nobody:intake", "x")))
            .build();
    assertThatThrownBy(() -> referenced.inline(doc))
        .isInstanceOfSatisfying(
            HydrationFailedException.class, e -> assertThat(e.permanent()).isTrue())
        .hasMessageContaining("blob_bag.blob.storage_ref.drive_name")
        .hasMessageContaining("nobody:intake");
  }

  @Test
  void aMissingObjectIsATransientFailureSoTheUnitIsRetried() {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("d4")
            .setBlobBag(BlobBag.newBuilder().setBlob(ref("acme:intake", "acme/intake/ds/gone.txt")))
            .build();
    assertThatThrownBy(() -> referenced.inline(doc))
        .isInstanceOfSatisfying(
            HydrationFailedException.class, e -> assertThat(e.permanent()).isFalse())
        .hasMessageContaining("acme/intake/ds/gone.txt");
  }
}
