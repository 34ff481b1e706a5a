package dev.protomolt.core.doclog;

import java.util.Objects;

/**
 * Everything a document log holds between calls, persisted through {@link DocumentLogStore}.
 *
 * <p>Parts {@code 0 .. nextPartIndex-1} are already written. {@code tail} is the text from
 * {@code tailStart} (the start of window {@code nextPartIndex}) to the end of what the log holds:
 * under one window, plus at most a high surrogate still waiting for its pair. {@code version} rises
 * by one on every change so a store can refuse a write based on a stale read. {@code seal} is null
 * until the log is sealed.
 */
public record DocumentLogState(
    LogKey key,
    WindowSpec windows,
    long version,
    int nextPartIndex,
    long tailStart,
    String tail,
    Seal seal) {

  /**
   * What a sealed log records about its original: its length in UTF-16 chars, the SHA-256 of its
   * UTF-8 bytes, and where the original is stored as one object ({@code ""} when it is not).
   */
  public record Seal(long length, String sha256, String original) {
    public Seal {
      Objects.requireNonNull(sha256, "sha256: must not be null");
      original = original == null ? "" : original;
    }

    /** A seal whose original was not stored as an object. */
    public Seal(long length, String sha256) {
      this(length, sha256, "");
    }
  }

  public DocumentLogState {
    Objects.requireNonNull(key, "key: must not be null");
    Objects.requireNonNull(windows, "windows: must not be null");
    Objects.requireNonNull(tail, "tail: must not be null");
    if (nextPartIndex < 0) {
      throw new IllegalArgumentException(
          "nextPartIndex: must not be negative (got " + nextPartIndex + ")");
    }
    if (tailStart < 0) {
      throw new IllegalArgumentException("tailStart: must not be negative (got " + tailStart + ")");
    }
  }

  /** A freshly opened, empty log. */
  public static DocumentLogState opened(LogKey key, WindowSpec windows) {
    return new DocumentLogState(key, windows, 0, 0, 0, "", null);
  }

  /** How many chars of the original the log holds: the offset the next new text starts at. */
  public long length() {
    return tailStart + tail.length();
  }

  public boolean sealed() {
    return seal != null;
  }

  DocumentLogState advanced(int nextPartIndex, long tailStart, String tail, Seal seal) {
    return new DocumentLogState(key, windows, version + 1, nextPartIndex, tailStart, tail, seal);
  }
}
