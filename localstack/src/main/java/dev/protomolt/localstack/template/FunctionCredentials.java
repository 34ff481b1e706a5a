package dev.protomolt.localstack.template;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The access key a deployed function (or task) signs its AWS calls with. Each gets its own, derived
 * from its logical id, so the local servers can tell callers apart and check each against its own
 * role's policies; deriving them keeps them stable across restarts of {@code protomolt up}.
 */
public record FunctionCredentials(String accessKeyId, String secretAccessKey) {

  private static final String BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

  /** The credentials of the resource with {@code logicalId} in stack {@code stackName}. */
  public static FunctionCredentials of(String stackName, String logicalId) {
    byte[] h = sha256("protomolt-local-key:" + stackName + ":" + logicalId);
    StringBuilder id = new StringBuilder("AKIA");
    for (int i = 0; i < 16; i++) {
      id.append(BASE32.charAt((h[i] & 0xff) % 32));
    }
    byte[] secret = sha256("protomolt-local-secret:" + stackName + ":" + logicalId);
    String encoded = Base64.getEncoder().withoutPadding().encodeToString(secret);
    return new FunctionCredentials(id.toString(), encoded.substring(0, 40));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }

  @Override
  public String toString() {
    // The secret stays out of logs and error messages.
    return "FunctionCredentials[" + accessKeyId + "]";
  }
}
