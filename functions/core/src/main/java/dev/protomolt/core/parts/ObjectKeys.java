package dev.protomolt.core.parts;

import dev.protomolt.names.StoragePrefix;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Where a stored state's part objects live: {@code <drive prefix><nodeId>/<write>/core.pb},
 * {@code blobs.pb}, {@code parsed.pb} and {@code chunks/<safe sub key>.pb}, where {@code <write>}
 * names the one save that wrote them ({@code w} and its write token as 16 hex digits). No two saves
 * share a write segment, so no save ever overwrites an object another save's manifest names
 * (decision 1600). States stored before write segments existed live directly under
 * {@code <nodeId>/}; they stay readable because a reader follows the keys its manifest names.
 *
 * <p>Keys hold only characters that need no escaping in a SigV4 canonical request
 * ({@code A-Z a-z 0-9 - _ . /}), because S3-compatible backends disagree on how to canonicalize
 * anything else. A chunk set's sub key is free text, so its key is a readable, shortened, sanitized
 * form of the sub key followed by a SHA-256 prefix of the full sub key: two sub keys that sanitize
 * alike still get different keys. {@code doc_id} never appears in a key.
 */
public final class ObjectKeys {
  /** Longest readable part of a chunk-set key, so keys stay well under S3's 1024-byte limit. */
  static final int READABLE_LIMIT = 48;

  /** Hex characters of the sub key's SHA-256 kept in the key: 80 bits. */
  static final int HASH_CHARS = 20;

  private final UUID nodeId;
  private final String prefix;

  private ObjectKeys(UUID nodeId, String prefix) {
    this.nodeId = nodeId;
    this.prefix = prefix;
  }

  /** Keys of a node's objects directly under the drive root. */
  public static ObjectKeys forNode(UUID nodeId) {
    return forNode("", nodeId);
  }

  /**
   * Keys of a node's objects under a drive prefix. The prefix is empty or ends with {@code /} and
   * holds only SigV4-safe characters.
   */
  public static ObjectKeys forNode(String drivePrefix, UUID nodeId) {
    if (drivePrefix == null) {
      throw new IllegalArgumentException(
          "drive prefix must not be null (use \"\" for the bucket root)");
    }
    if (!drivePrefix.isEmpty() && !drivePrefix.endsWith("/")) {
      throw new IllegalArgumentException(
          "drive prefix must end with '/', got \"" + drivePrefix + "\"");
    }
    for (int i = 0; i < drivePrefix.length(); i++) {
      char c = drivePrefix.charAt(i);
      if (!isSafe(c) && c != '/') {
        throw new IllegalArgumentException(
            "drive prefix must hold only A-Z a-z 0-9 - _ . / characters, got \""
                + drivePrefix
                + "\"");
      }
    }
    if (nodeId == null) {
      throw new IllegalArgumentException("node_id must not be null");
    }
    return new ObjectKeys(nodeId, drivePrefix + nodeId + "/");
  }

  /**
   * Keys of one stored copy on a drive: a PERSIST copy ({@code keep}) under the drive prefix, a
   * CACHE copy under {@link StoragePrefix#CACHE_STAGING} followed by the drive prefix, so the
   * platform bucket's lifecycle rule (one static key prefix) can expire CACHE staging that reclaim
   * missed without ever matching a PERSIST copy.
   */
  public static ObjectKeys forCopy(String drivePrefix, UUID nodeId, boolean keep) {
    if (drivePrefix == null) {
      throw new IllegalArgumentException(
          "drive prefix must not be null (use \"\" for the bucket root)");
    }
    return forNode(keep ? drivePrefix : StoragePrefix.CACHE_STAGING + drivePrefix, nodeId);
  }

  /**
   * Keys of the objects one save writes: under the node's prefix and then the save's own write
   * segment, so they are never reused by another save.
   *
   * @param writeToken the save's write token from the ledger; positive
   */
  public static ObjectKeys forWrite(String drivePrefix, UUID nodeId, long writeToken) {
    if (writeToken <= 0) {
      throw new IllegalArgumentException("write token must be positive, got " + writeToken);
    }
    ObjectKeys node = forNode(drivePrefix, nodeId);
    return new ObjectKeys(nodeId, node.prefix + writeSegment(writeToken) + "/");
  }

  /**
   * Keys of the objects one save writes for a copy with this keep flag: the drive layout of {@link
   * #forCopy} (CACHE under {@code cache/}), then the save's own write segment.
   */
  public static ObjectKeys forWrite(
      String drivePrefix, UUID nodeId, boolean keep, long writeToken) {
    if (drivePrefix == null) {
      throw new IllegalArgumentException(
          "drive prefix must not be null (use \"\" for the bucket root)");
    }
    return forWrite(
        keep ? drivePrefix : StoragePrefix.CACHE_STAGING + drivePrefix, nodeId, writeToken);
  }

  /** The write segment of a token: {@code w} and 16 lower-case hex digits, sorting by token. */
  public static String writeSegment(long writeToken) {
    return String.format("w%016x", writeToken);
  }

  /** The node whose objects these keys name. */
  public UUID nodeId() {
    return nodeId;
  }

  /** The common prefix of every object these keys name, ending with {@code /}. */
  public String prefix() {
    return prefix;
  }

  public String core() {
    return prefix + "core.pb";
  }

  public String blobs() {
    return prefix + "blobs.pb";
  }

  public String parsed() {
    return prefix + "parsed.pb";
  }

  /** The key of one chunk set's object. */
  public String chunkSet(String subKey) {
    if (subKey == null || subKey.isEmpty()) {
      throw new IllegalArgumentException("sub_key must not be blank for a chunk set");
    }
    return prefix + "chunks/" + safeName(subKey) + ".pb";
  }

  static String safeName(String subKey) {
    StringBuilder out = new StringBuilder(READABLE_LIMIT + HASH_CHARS + 1);
    for (int i = 0; i < subKey.length() && out.length() < READABLE_LIMIT; i++) {
      char c = subKey.charAt(i);
      // '.' is left out of the readable part so a sub key can never form "." or ".." segments.
      out.append(isSafe(c) && c != '.' ? c : '_');
    }
    out.append('-');
    out.append(Sha256Hex.of(subKey.getBytes(StandardCharsets.UTF_8)), 0, HASH_CHARS);
    return out.toString();
  }

  private static boolean isSafe(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.';
  }
}
