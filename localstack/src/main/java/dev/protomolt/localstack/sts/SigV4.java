package dev.protomolt.localstack.sts;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The pieces of AWS Signature Version 4 a local service needs to check a signature it received:
 * the signing key, HMAC and SHA-256, and SigV4's URI encoding. Shared by the local STS (presigned
 * queries) and the local OTLP collector (signed headers).
 */
public final class SigV4 {

  public static final String ALGORITHM = "AWS4-HMAC-SHA256";

  /** {@code X-Amz-Date}'s form. */
  public static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private SigV4() {}

  /** The string-to-sign's hex signature under {@code secret}'s key for the scope given. */
  public static String signature(
      String secret, String date, String region, String service, String stringToSign) {
    return HexFormat.of().formatHex(hmac(signingKey(secret, date, region, service), stringToSign));
  }

  /** Whether two hex signatures are equal, compared in constant time. */
  public static boolean sameSignature(String expected, String received) {
    return MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.US_ASCII),
        received.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
  }

  static byte[] signingKey(String secret, String date, String region, String service) {
    byte[] k = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
    k = hmac(k, region);
    k = hmac(k, service);
    return hmac(k, "aws4_request");
  }

  static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  public static String sha256Hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  public static String sha256Hex(String data) {
    return sha256Hex(data.getBytes(StandardCharsets.UTF_8));
  }

  /** RFC 3986 encoding as SigV4 defines it: unreserved characters stay, all else is %XX. */
  public static String uriEncode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
      }
    }
    return out.toString();
  }
}
