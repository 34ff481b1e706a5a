package dev.protomolt.core.rtbf;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SealedDocument;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the body of a right-to-be-forgotten stream (decision 1750): the document's
 * protobuf bytes under AES-256-GCM with the stream's data key, the stream id as additional data.
 * Every reader opens in memory and seals what goes back into execution state; the terminal path
 * {@link #forget}s the key. A stream without a data key passes through untouched.
 */
public final class SealedStreams {

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final DataKeys keys;
  private final SecureRandom random = new SecureRandom();

  public SealedStreams(DataKeys keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** The data key id intake creates for a document admitted right-to-be-forgotten. */
  public static String intakeKeyId(String accountId, String docId) {
    return "rtbf/" + accountId + "/" + docId;
  }

  /** The key of a fan-out child: its own, destroyed when the child ends. */
  public static String childKeyId(String parentKeyId, String childExecutionName) {
    return parentKeyId + "/" + childExecutionName;
  }

  /** Whether {@code stream} is under a data key (its body sealed or to be sealed). */
  public static boolean keyed(PipeStream stream) {
    return !stream.getMetadata().getDataKeyId().isEmpty();
  }

  /**
   * Creates (or finds) the key {@code keyId} and seals the inline body under it, recording the key
   * id in the stream's metadata.
   */
  public PipeStream sealNew(PipeStream stream, String keyId) {
    requireInline(stream);
    byte[] key = keys.create(keyId);
    PipeStream keyed =
        stream.toBuilder()
            .setMetadata(stream.getMetadata().toBuilder().setDataKeyId(keyId))
            .build();
    return sealWith(keyed, key);
  }

  /**
   * The stream as execution state may hold it: an inline body of a keyed stream sealed under its
   * key; anything else unchanged.
   *
   * @throws DataKeyGoneException when the key was destroyed
   */
  public PipeStream seal(PipeStream stream) {
    if (!keyed(stream) || !stream.hasDocument()) {
      return stream;
    }
    return sealWith(stream, keys.open(stream.getMetadata().getDataKeyId()));
  }

  /**
   * The stream with its body opened in memory; a stream with no sealed body unchanged.
   *
   * @throws DataKeyGoneException when the key was destroyed
   * @throws IllegalArgumentException naming the field when the ciphertext does not open under the
   *     key (tampered, or sealed for another stream)
   */
  public PipeStream open(PipeStream stream) {
    if (!stream.hasSealedDocument()) {
      return stream;
    }
    String keyId = stream.getMetadata().getDataKeyId();
    if (keyId.isEmpty()) {
      throw new IllegalArgumentException(
          "stream '"
              + stream.getStreamId()
              + "': metadata.data_key_id must name the key a sealed_document is sealed under");
    }
    byte[] key = keys.open(keyId);
    SealedDocument sealed = stream.getSealedDocument();
    byte[] plain;
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BITS, sealed.getNonce().toByteArray()));
      cipher.updateAAD(aad(stream));
      plain = cipher.doFinal(sealed.getCiphertext().toByteArray());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "stream '"
              + stream.getStreamId()
              + "': sealed_document does not open under data key '"
              + keyId
              + "' (tampered, or sealed for another stream)",
          e);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
    try {
      return stream.toBuilder().setDocument(PipeDoc.parseFrom(plain)).build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "stream '" + stream.getStreamId() + "': sealed_document is not a PipeDoc", e);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  /** Destroys the stream's data key, if it has one: its ciphertext is unreadable from now on. */
  public void forget(PipeStream stream) {
    if (keyed(stream)) {
      keys.destroy(stream.getMetadata().getDataKeyId());
    }
  }

  private PipeStream sealWith(PipeStream stream, byte[] key) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad(stream));
      byte[] ciphertext = cipher.doFinal(stream.getDocument().toByteArray());
      return stream.toBuilder()
          .setSealedDocument(
              SealedDocument.newBuilder()
                  .setNonce(ByteString.copyFrom(nonce))
                  .setCiphertext(ByteString.copyFrom(ciphertext)))
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM must be available in every JDK", e);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }

  private static byte[] aad(PipeStream stream) {
    return stream.getStreamId().getBytes(StandardCharsets.UTF_8);
  }

  private static void requireInline(PipeStream stream) {
    if (!stream.hasDocument()) {
      throw new IllegalArgumentException(
          "stream '"
              + stream.getStreamId()
              + "': only an inline document can be sealed, it carries "
              + stream.getPayloadCase());
    }
  }
}
