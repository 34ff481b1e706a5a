package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.Blobs;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import org.junit.jupiter.api.Test;

class BlobHusksTest {

  private static final FileStorageReference RAW =
      FileStorageReference.newBuilder()
          .setDriveName("acme:intake")
          .setObjectKey("raw/source.bin")
          .build();

  @Test
  void aHuskKeepsWhatTheBlobWasAndDropsItsBytesAndRawPointer() {
    PipeDoc fragment =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlobs(
                        Blobs.newBuilder()
                            .addBlob(
                                Blob.newBuilder()
                                    .setBlobId("inline")
                                    .setMimeType("text/plain")
                                    .setChecksum("abc")
                                    .setChecksumType("SHA-256")
                                    .setData(ByteString.copyFromUtf8("twelve bytes")))
                            .addBlob(
                                Blob.newBuilder()
                                    .setBlobId("stored")
                                    .setFilename("a.pdf")
                                    .setSizeBytes(99)
                                    .setStorageRef(RAW)
                                    .putMetadata("k", "v"))))
            .build();

    BlobHusks.Husk husk = BlobHusks.of(fragment);

    assertThat(husk.rawObjects()).containsExactly(RAW);
    Blob inline = husk.husk().getBlobBag().getBlobs().getBlob(0);
    assertThat(inline.getContentCase()).isEqualTo(Blob.ContentCase.CONTENT_NOT_SET);
    assertThat(inline.getSizeBytes()).isEqualTo(12);
    assertThat(inline.getChecksum()).isEqualTo("abc");
    assertThat(inline.getMimeType()).isEqualTo("text/plain");
    Blob stored = husk.husk().getBlobBag().getBlobs().getBlob(1);
    assertThat(stored.hasStorageRef()).isFalse();
    assertThat(stored.getSourceReceipt()).as("the released object, for replay").isEqualTo(RAW);
    assertThat(inline.hasSourceReceipt()).as("inline bytes came from no object").isFalse();
    assertThat(stored.getSizeBytes()).isEqualTo(99);
    assertThat(stored.getMetadataMap()).containsEntry("k", "v");
    assertThat(husk.husk().getDocId()).isEqualTo("d");
  }

  @Test
  void huskingAHuskChangesNothing() {
    PipeDoc fragment =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder().setBlobId("b").setData(ByteString.copyFromUtf8("xyz"))))
            .build();
    PipeDoc once = BlobHusks.of(fragment).husk();

    BlobHusks.Husk twice = BlobHusks.of(once);

    assertThat(twice.husk()).isEqualTo(once);
    assertThat(twice.rawObjects()).isEmpty();
  }
}
