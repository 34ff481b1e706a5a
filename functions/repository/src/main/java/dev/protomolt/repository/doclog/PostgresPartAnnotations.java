package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.PartAnnotation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Annotations on log parts in PostgreSQL (migration V1670). The kinds and how each checks its body
 * are rows of {@code document_log_annotation_kinds}, read on every add, so a kind added by a
 * migration is accepted without a code change. Every refusal names the field and the rule and
 * writes nothing.
 */
public final class PostgresPartAnnotations {

  static final int MAX_BODY_LENGTH = 16_384;
  static final int MAX_AUTHOR_LENGTH = 255;

  private static final Pattern LABEL = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  private final DataSource dataSource;
  private final Clock clock;

  public PostgresPartAnnotations(DataSource dataSource, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource: must not be null");
    this.clock = Objects.requireNonNull(clock, "clock: must not be null");
  }

  /**
   * Attaches an annotation to the written part {@code partIndex} of {@code key}; {@code span} may
   * be null for the whole part.
   */
  public PartAnnotation add(
      LogKey key,
      int partIndex,
      String kind,
      String author,
      String body,
      PartAnnotation.Span span) {
    Objects.requireNonNull(key, "key: must not be null");
    Map<String, String> kinds = kinds();
    if (kind == null || !kinds.containsKey(kind)) {
      throw new IllegalArgumentException(
          "kind: must be one of " + kinds.keySet() + " (got \"" + kind + "\")");
    }
    checkText("author", author, MAX_AUTHOR_LENGTH);
    checkText("body", body, MAX_BODY_LENGTH);
    if (kinds.get(kind).equals("label") && !LABEL.matcher(body).matches()) {
      throw new IllegalArgumentException(
          "body: a "
              + kind
              + " must be a lower-case name of letters, digits and single '-' such as"
              + " root-cause, flake or noise (got \""
              + body
              + "\")");
    }
    DocumentPart part =
        part(key, partIndex)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "partIndex: log "
                            + key
                            + " has no written part "
                            + partIndex
                            + "; only written parts can be annotated (list them first)"));
    if (span != null && span.end() > part.text().length()) {
      throw new IllegalArgumentException(
          "span.end: must not pass the end of part "
              + partIndex
              + ", which holds "
              + part.text().length()
              + " chars (got "
              + span.end()
              + ")");
    }
    PartAnnotation annotation =
        new PartAnnotation(
            UUID.randomUUID(), key, partIndex, kind, author, body, span, clock.instant());
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO document_log_annotations (id, collection, path, part_index, kind,"
                    + " author, body, span_start, span_end, created_at) VALUES (?, ?, ?, ?, ?, ?,"
                    + " ?, ?, ?, ?)")) {
      s.setObject(1, annotation.id());
      s.setString(2, key.collection());
      s.setString(3, key.path());
      s.setInt(4, partIndex);
      s.setString(5, kind);
      s.setString(6, author);
      s.setString(7, body);
      if (span == null) {
        s.setNull(8, Types.INTEGER);
        s.setNull(9, Types.INTEGER);
      } else {
        s.setInt(8, span.start());
        s.setInt(9, span.end());
      }
      s.setTimestamp(10, Timestamp.from(annotation.createdAt()));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new DocumentLogStorageException("annotating part " + partIndex + " of log " + key, e);
    }
    return annotation;
  }

  /** The annotations of parts {@code fromIndex .. toIndex-1} of {@code key}, oldest first. */
  public List<PartAnnotation> of(LogKey key, int fromIndex, int toIndex) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, part_index, kind, author, body, span_start, span_end, created_at FROM"
                    + " document_log_annotations WHERE collection = ? AND path = ? AND part_index"
                    + " >= ? AND part_index < ? ORDER BY part_index, created_at, id")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      s.setInt(3, fromIndex);
      s.setInt(4, toIndex);
      List<PartAnnotation> found = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          int spanStart = r.getInt(6);
          PartAnnotation.Span span =
              r.wasNull() ? null : new PartAnnotation.Span(spanStart, r.getInt(7));
          Instant created = r.getTimestamp(8).toInstant();
          found.add(
              new PartAnnotation(
                  r.getObject(1, UUID.class),
                  key,
                  r.getInt(2),
                  r.getString(3),
                  r.getString(4),
                  r.getString(5),
                  span,
                  created));
        }
      }
      return found;
    } catch (SQLException e) {
      throw new DocumentLogStorageException("reading the annotations of log " + key, e);
    }
  }

  /** The kind mapping: each kind and how its body is checked. */
  public Map<String, String> kinds() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT kind, body_rule FROM document_log_annotation_kinds");
        ResultSet r = s.executeQuery()) {
      Map<String, String> kinds = new TreeMap<>();
      while (r.next()) {
        kinds.put(r.getString(1), r.getString(2));
      }
      return kinds;
    } catch (SQLException e) {
      throw new DocumentLogStorageException("reading the annotation kinds", e);
    }
  }

  private Optional<DocumentPart> part(LogKey key, int partIndex) {
    if (partIndex < 0) {
      throw new IllegalArgumentException("partIndex: must not be negative (got " + partIndex + ")");
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT start_offset, text_utf16, sha256 FROM document_log_parts WHERE collection"
                    + " = ? AND path = ? AND part_index = ?")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      s.setInt(3, partIndex);
      try (ResultSet r = s.executeQuery()) {
        return r.next()
            ? Optional.of(
                new DocumentPart(
                    partIndex, r.getLong(1), Utf16Bytes.decode(r.getBytes(2)), r.getString(3)))
            : Optional.empty();
      }
    } catch (SQLException e) {
      throw new DocumentLogStorageException("reading part " + partIndex + " of log " + key, e);
    }
  }

  private static void checkText(String field, String value, int maxLength) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": must not be blank");
    }
    if (value.length() > maxLength) {
      throw new IllegalArgumentException(
          field + ": must be at most " + maxLength + " chars (got " + value.length() + ")");
    }
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          field + ": must not contain NUL (U+0000) at index " + value.indexOf('\0'));
    }
  }
}
