package dev.protomolt.localstack.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.tracing.DocumentTrace;
import dev.protomolt.core.tracing.TraceSpan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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
  public synchronized void append(List<TraceSpan> spans) {
    if (spans.isEmpty()) {
      return;
    }
    StringBuilder lines = new StringBuilder();
    try {
      for (TraceSpan span : spans) {
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
  public List<TraceSpan> all() {
    if (!Files.exists(file)) {
      return List.of();
    }
    List<TraceSpan> spans = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        try {
          spans.add(JSON.readValue(line, TraceSpan.class));
        } catch (IOException torn) {
          // A line cut short by a crash mid-write is skipped; the others are whole.
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read spans from " + file, e);
    }
    return spans;
  }

  /** The trace of document {@code docId} by decision 1795's rule; empty when no span names it. */
  public List<TraceSpan> traceOf(String docId) {
    return DocumentTrace.newest(all(), docId);
  }

  /** The attribute the platform's spans name their document with (the tracing module's). */
  public static final String DOC_ID = DocumentTrace.DOC_ID;
}
