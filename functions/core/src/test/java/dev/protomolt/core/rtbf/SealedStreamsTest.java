package dev.protomolt.core.rtbf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SealedStreamsTest {

  private static final String MARKER = "violet-heron-4417";

  private final InMemoryDataKeys keys = new InMemoryDataKeys();
  private final SealedStreams seals = new SealedStreams(keys);

  private static PipeStream inline(String streamId) {
    return PipeStream.newBuilder()
        .setStreamId(streamId)
        .setDocument(
            PipeDoc.newBuilder()
                .setDocId("doc-1")
                .setBlobBag(
                    BlobBag.newBuilder()
                        .setBlob(Blob.newBuilder().setData(ByteString.copyFromUtf8(MARKER)))))
        .build();
  }

  @Test
  void aSealedStreamHoldsOnlyCiphertextAndOpensToTheDocument() {
    PipeStream plain = inline("s-1");
    PipeStream sealed = seals.sealNew(plain, "rtbf/acme/doc-1");

    assertThat(sealed.hasDocument()).isFalse();
    assertThat(sealed.getMetadata().getDataKeyId()).isEqualTo("rtbf/acme/doc-1");
    assertThat(new String(sealed.toByteArray(), StandardCharsets.ISO_8859_1))
        .doesNotContain(MARKER);
    PipeStream opened = seals.open(sealed);
    assertThat(opened.getDocument()).isEqualTo(plain.getDocument());
    // Re-sealing what a reader opened uses a fresh nonce under the same key.
    PipeStream again = seals.seal(opened);
    assertThat(again.getSealedDocument().getNonce())
        .isNotEqualTo(sealed.getSealedDocument().getNonce());
    assertThat(seals.open(again).getDocument()).isEqualTo(plain.getDocument());
  }

  @Test
  void aStreamWithoutAKeyPassesThroughUntouched() {
    PipeStream plain = inline("s-2");
    assertThat(seals.seal(plain)).isSameAs(plain);
    assertThat(seals.open(plain)).isSameAs(plain);
    PipeStream ref =
        PipeStream.newBuilder()
            .setDocumentRef(DocumentReference.newBuilder().setDocId("d"))
            .build();
    assertThat(seals.seal(ref)).isSameAs(ref);
    seals.forget(plain);
  }

  @Test
  void afterForgetTheCiphertextCannotBeOpened() {
    PipeStream sealed = seals.sealNew(inline("s-3"), "rtbf/acme/doc-3");
    seals.forget(sealed);
    assertThatThrownBy(() -> seals.open(sealed))
        .isInstanceOf(DataKeyGoneException.class)
        .hasMessageContaining("'rtbf/acme/doc-3'");
  }

  @Test
  void aBodyMovedToAnotherStreamOrWithoutItsKeyIdIsRefusedNamingTheField() {
    PipeStream sealed = seals.sealNew(inline("s-4"), "rtbf/acme/doc-4");
    assertThatThrownBy(() -> seals.open(sealed.toBuilder().setStreamId("other").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sealed_document does not open under data key 'rtbf/acme/doc-4'");
    PipeStream keyless =
        sealed.toBuilder().setMetadata(sealed.getMetadata().toBuilder().clearDataKeyId()).build();
    assertThatThrownBy(() -> seals.open(keyless))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("metadata.data_key_id must name the key");
  }

  @Test
  void onlyAnInlineDocumentCanBeSealed() {
    PipeStream ref =
        PipeStream.newBuilder()
            .setStreamId("s-5")
            .setDocumentRef(DocumentReference.newBuilder().setDocId("d"))
            .build();
    assertThatThrownBy(() -> seals.sealNew(ref, "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only an inline document can be sealed");
  }
}
