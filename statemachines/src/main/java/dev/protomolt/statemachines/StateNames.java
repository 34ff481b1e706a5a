package dev.protomolt.statemachines;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Gives every node a label that prefixes its state names ({@code <label>.Prepare} and so on).
 *
 * <p>Node ids are arbitrary strings (UUIDs, long names, spaces, slashes, non-Latin text), while
 * state names must be at most 80 characters and are safest in a plain alphabet that CloudWatch and
 * X-Ray accept. A node id made only of {@code [A-Za-z0-9_-]}, at most {@link #MAX_PLAIN_LENGTH}
 * long and without {@code "--"} is its own label, so the console shows the id the author wrote.
 * Any other id becomes its sanitized, shortened prefix followed by {@code "--"} and the first 10
 * hex digits of the SHA-256 of the id. Plain labels never contain {@code "--"}, so a plain label
 * never equals a hashed one; two hashed labels could only meet on a 40-bit hash collision with the
 * same prefix, which {@link AslRules}' uniqueness check would still report rather than let through.
 */
final class StateNames {

  /** Room left for the longest state suffix (".ChildAlreadyStarted", 20) and a margin within 80 characters. */
  static final int MAX_LABEL_LENGTH = AslRules.MAX_STATE_NAME_LENGTH - 24;

  static final int MAX_PLAIN_LENGTH = MAX_LABEL_LENGTH;

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");
  private static final int HASH_HEX_DIGITS = 10;

  private StateNames() {}

  /** Labels for the given node ids, in the same order. Ids must be distinct. */
  static Map<String, String> labels(List<String> nodeIds) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (String id : nodeIds) {
      labels.put(id, label(id));
    }
    return labels;
  }

  static String label(String nodeId) {
    if (PLAIN.matcher(nodeId).matches()
        && nodeId.length() <= MAX_PLAIN_LENGTH
        && !nodeId.contains("--")) {
      return nodeId;
    }
    StringBuilder prefix = new StringBuilder();
    for (int i = 0;
        i < nodeId.length() && prefix.length() < MAX_LABEL_LENGTH - HASH_HEX_DIGITS - 2;
        i++) {
      char c = nodeId.charAt(i);
      boolean plain =
          (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      // '-' is dropped from the prefix so the prefix itself can never contain the "--" marker.
      prefix.append(plain ? c : '_');
    }
    return prefix + "--" + sha256Hex(nodeId).substring(0, HASH_HEX_DIGITS);
  }

  private static String sha256Hex(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
