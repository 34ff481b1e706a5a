package dev.protomolt.core.doclog;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over the UTF-8 bytes of text, as lowercase hex: the same figure {@code sha256sum} prints
 * for the text saved as a UTF-8 file. An unpaired surrogate has no UTF-8 form and is hashed as the
 * JDK encodes it ({@code '?'}); see docs/decisions/0700.
 */
final class TextDigest {

  private final MessageDigest digest = newSha256();

  static String sha256(String text) {
    TextDigest digest = new TextDigest();
    digest.update(text);
    return digest.hex();
  }

  /** SHA-256 of {@code bytes} as lowercase hex. */
  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(newSha256().digest(bytes));
  }

  /** Adds text; callers feed slices that start and end on code point boundaries. */
  void update(String text) {
    digest.update(text.getBytes(StandardCharsets.UTF_8));
  }

  String hex() {
    return HexFormat.of().formatHex(digest.digest());
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform is required to provide SHA-256, so this cannot happen on a real JDK.
      throw new IllegalStateException("SHA-256 is not available on this JDK", e);
    }
  }
}
