package dev.protomolt.cli;

import dev.protomolt.localstack.otlp.StoredSpan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One trace as an indented tree: each span under its parent, siblings by start time, with its
 * service, duration, offset from the trace's start and status. A span whose parent was never
 * received (a process that did not export) is shown at the top level, marked, rather than lost.
 */
final class TraceTree {

  private TraceTree() {}

  static List<String> render(List<StoredSpan> spans) {
    Set<String> ids = new LinkedHashSet<>();
    spans.forEach(s -> ids.add(s.spanId()));
    Map<String, List<StoredSpan>> children = new HashMap<>();
    List<StoredSpan> roots = new ArrayList<>();
    for (StoredSpan s : spans) {
      if (!s.parentSpanId().isEmpty() && ids.contains(s.parentSpanId())) {
        children.computeIfAbsent(s.parentSpanId(), k -> new ArrayList<>()).add(s);
      } else {
        roots.add(s);
      }
    }
    Comparator<StoredSpan> byStart = Comparator.comparingLong(StoredSpan::startNanos);
    roots.sort(byStart);
    children.values().forEach(list -> list.sort(byStart));
    long origin = spans.stream().mapToLong(StoredSpan::startNanos).min().orElse(0);
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "%-56s %-12s %10s %10s  %s",
            "SPAN",
            "SERVICE",
            "START",
            "DURATION",
            "STATUS"));
    for (StoredSpan root : roots) {
      walk(root, "", children, origin, lines);
    }
    return lines;
  }

  private static void walk(
      StoredSpan span,
      String indent,
      Map<String, List<StoredSpan>> children,
      long origin,
      List<String> lines) {
    String name = indent + span.name();
    if (indent.isEmpty() && !span.parentSpanId().isEmpty()) {
      name += " (parent not received)";
    }
    String status =
        span.statusMessage().isEmpty() ? span.status() : span.status() + " " + span.statusMessage();
    lines.add(
        String.format(
            Locale.ROOT,
            "%-56s %-12s %10s %10s  %s",
            name,
            span.service(),
            "+" + millis(span.startNanos() - origin),
            millis(span.durationNanos()),
            status));
    for (StoredSpan child : children.getOrDefault(span.spanId(), List.of())) {
      walk(child, indent + "  ", children, origin, lines);
    }
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1_000_000.0);
  }
}
