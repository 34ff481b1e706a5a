package dev.protomolt.core.doclog;

import java.util.Objects;

/**
 * Window {@code index} of a document's text: its {@code text}, where it starts in the original
 * ({@code start}, in UTF-16 chars, the unit of Java string indexes and of producer offsets) and
 * the SHA-256 of its text. A part is a pure function of the original and the window spec.
 */
public record DocumentPart(int index, long start, String text, String sha256) {

  public DocumentPart {
    if (index < 0) {
      throw new IllegalArgumentException("index: must not be negative (got " + index + ")");
    }
    if (start < 0) {
      throw new IllegalArgumentException("start: must not be negative (got " + start + ")");
    }
    Objects.requireNonNull(text, "text: must not be null");
    Objects.requireNonNull(sha256, "sha256: must not be null");
  }

  static DocumentPart of(int index, long start, String text) {
    return new DocumentPart(index, start, text, TextDigest.sha256(text));
  }

  /** The offset in the original just past this part's text. */
  public long end() {
    return start + text.length();
  }
}
