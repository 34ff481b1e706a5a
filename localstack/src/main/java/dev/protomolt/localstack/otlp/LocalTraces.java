package dev.protomolt.localstack.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The spans the local collector keeps: one JSON line per span in {@code <data>/traces/spans.jsonl}
 * beside the other services' data, so a {@code protomolt trace} in another process reads what
 * {@code up} received, and a restart keeps them. Local only: nothing here reaches the ledger's
 * production migrations.
 */
public final class LocalTraces {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;

  private LocalTraces(Path file) {
    this.file = file;
  }

  /** The spans kept under data folder {@code dataDir}. */
  public static LocalTraces in(Path dataDir) {
    return new LocalTraces(dataDir.toAbsolutePath().resolve("traces").resolve("spans.jsonl"));
  }

  public Path file() {
    return file;
  }

  /** Appends {@code spans}, one line each, in one write so lines of two exports never interleave. */
  public synchronized void append(List<StoredSpan> spans) {
    if (spans.isEmpty()) {
      return;
    }
    StringBuilder lines = new StringBuilder();
    try {
      for (StoredSpan span : spans) {
        lines.append(JSON.writeValueAsString(span)).append('\n');
      }
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          lines,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep spans in " + file, e);
    }
  }

  /** Every kept span, in the order received. */
  public List<StoredSpan> all() {
    if (!Files.exists(file)) {
      return List.of();
    }
    List<StoredSpan> spans = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        try {
          spans.add(JSON.readValue(line, StoredSpan.class));
        } catch (IOException torn) {
          // A line cut short by a crash mid-write is skipped; the others are whole.
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read spans from " + file, e);
    }
    return spans;
  }

  /**
   * The trace of document {@code docId}: every span of the newest trace one of whose spans names
   * the document, earliest first; empty when no kept span names it.
   */
  public List<StoredSpan> traceOf(String docId) {
    List<StoredSpan> spans = all();
    Optional<String> traceId =
        spans.stream()
            .filter(s -> docId.equals(s.attributes().get(DOC_ID)))
            .max(Comparator.comparingLong(StoredSpan::startNanos))
            .map(StoredSpan::traceId);
    if (traceId.isEmpty()) {
      return List.of();
    }
    return spans.stream()
        .filter(s -> s.traceId().equals(traceId.get()))
        .sorted(Comparator.comparingLong(StoredSpan::startNanos))
        .toList();
  }

  /** The attribute the platform's spans name their document with (the tracing module's). */
  public static final String DOC_ID = "protomolt.doc_id";
}
