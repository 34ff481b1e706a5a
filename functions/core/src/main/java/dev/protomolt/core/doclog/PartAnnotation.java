package dev.protomolt.core.doclog;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Something said about one part of a log: a person's note, an agent's label (root-cause, flake,
 * noise) or a finding. {@code kind} names a row of the store's kind mapping, which decides how the
 * body is checked; {@code span}, when present, narrows the annotation to chars of the part's text.
 */
public record PartAnnotation(
    UUID id,
    LogKey key,
    int partIndex,
    String kind,
    String author,
    String body,
    Span span,
    Instant createdAt) {

  /** Char offsets inside a part's text, {@code start} inclusive, {@code end} exclusive. */
  public record Span(int start, int end) {
    public Span {
      if (start < 0) {
        throw new IllegalArgumentException("span.start: must not be negative (got " + start + ")");
      }
      if (end <= start) {
        throw new IllegalArgumentException(
            "span.end: must be greater than span.start " + start + " (got " + end + ")");
      }
    }
  }

  public PartAnnotation {
    Objects.requireNonNull(id, "id: must not be null");
    Objects.requireNonNull(key, "key: must not be null");
    Objects.requireNonNull(kind, "kind: must not be null");
    Objects.requireNonNull(author, "author: must not be null");
    Objects.requireNonNull(body, "body: must not be null");
    Objects.requireNonNull(createdAt, "createdAt: must not be null");
  }
}
