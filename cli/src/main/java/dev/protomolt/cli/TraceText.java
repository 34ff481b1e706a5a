package dev.protomolt.cli;

import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.core.tracing.TraceTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@link TraceTree}'s rows as the aligned text {@code protomolt trace} prints: the span's name
 * indented two spaces per level, its service, start offset, duration and status.
 */
final class TraceText {

  private static final String ROW = "%-56s %-12s %10s %10s  %s";

  private TraceText() {}

  static List<String> render(List<TraceSpan> spans) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, ROW, "SPAN", "SERVICE", "START", "DURATION", "STATUS"));
    for (TraceTree.Row row : TraceTree.rows(spans)) {
      TraceSpan span = row.span();
      String name = "  ".repeat(row.depth()) + span.name();
      if (row.parentMissing()) {
        name += " (parent not received)";
      }
      String status =
          span.statusMessage().isEmpty()
              ? span.status()
              : span.status() + " " + span.statusMessage();
      lines.add(
          String.format(
              Locale.ROOT,
              ROW,
              name,
              span.service(),
              "+" + millis(row.offsetNanos()),
              millis(span.durationNanos()),
              status));
    }
    return lines;
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1_000_000.0);
  }
}
