package dev.protomolt.module.samples.chunker;

import dev.protomolt.module.sdk.CustomConfig;
import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.proto.module.v1.RejectReason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * A chunking configuration read from the node's custom_config: {@code window_chars} (default 500),
 * {@code overlap_chars} (default 50) and {@code source_field} ("body" or "title", default "body").
 */
public record ChunkerConfig(int windowChars, int overlapChars, String sourceField) {

  public static final int DEFAULT_WINDOW = 500;
  public static final int DEFAULT_OVERLAP = 50;
  private static final Set<String> FIELDS = Set.of("body", "title");

  public static ChunkerConfig from(CustomConfig config) throws DocumentRejectedException {
    int window = config.intValue("window_chars", DEFAULT_WINDOW, 16, 100_000);
    int overlap = config.intValue("overlap_chars", DEFAULT_OVERLAP, 0, 100_000);
    if (overlap >= window) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "custom_config.overlap_chars ("
              + overlap
              + ") must be less than custom_config.window_chars ("
              + window
              + ")");
    }
    String field = config.stringValue("source_field").orElse("body");
    if (!FIELDS.contains(field)) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "custom_config.source_field must be \"body\" or \"title\", got \"" + field + "\"");
    }
    return new ChunkerConfig(window, overlap, field);
  }

  /** Human-readable and stable: equal configs give equal ids. */
  public String chunkConfigId() {
    return "window-" + windowChars + "-overlap-" + overlapChars;
  }

  /**
   * The chunk set's identity, derived only from the configuration and the source field, so
   * re-chunking a document with the same config replaces its chunk set instead of adding one.
   */
  public String resultId() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  ("sample-chunker/1|" + sourceField + "|" + chunkConfigId())
                      .getBytes(StandardCharsets.UTF_8));
      return "chunks-" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM ships SHA-256", e);
    }
  }
}
