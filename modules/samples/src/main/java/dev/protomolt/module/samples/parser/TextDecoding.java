package dev.protomolt.module.samples.parser;

import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.proto.module.v1.RejectReason;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * Decodes text blobs strictly: a malformed byte is a Reject naming its offset, never a silent
 * replacement character, so no text is lost without anyone being told.
 */
final class TextDecoding {

  private TextDecoding() {}

  static String decode(byte[] bytes, String declaredEncoding) throws DocumentRejectedException {
    Charset charset = charsetOf(declaredEncoding);
    CharsetDecoder decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer input = ByteBuffer.wrap(bytes);
    try {
      String text = decoder.decode(input).toString();
      // A byte-order mark is an encoding artefact, not text.
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag.blob.data is not valid "
              + charset.name()
              + " at byte offset "
              + input.position()
              + " (set blob.encoding if the text uses another charset)");
    }
  }

  private static Charset charsetOf(String declared) throws DocumentRejectedException {
    if (declared == null || declared.isBlank()) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(declared.trim());
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag.blob.encoding \"" + declared + "\" is not a charset this JVM knows");
    }
  }
}
