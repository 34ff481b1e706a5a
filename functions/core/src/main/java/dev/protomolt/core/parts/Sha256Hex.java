package dev.protomolt.core.parts;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Lower-case hex SHA-256, the digest spelling the manifest records. */
public final class Sha256Hex {
  private static final HexFormat HEX = HexFormat.of();

  private Sha256Hex() {}

  public static String of(byte[] bytes) {
    return HEX.formatHex(newDigest().digest(bytes));
  }

  static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform is required to provide SHA-256; reaching this is a broken JDK.
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  static String hex(byte[] digest) {
    return HEX.formatHex(digest);
  }
}
