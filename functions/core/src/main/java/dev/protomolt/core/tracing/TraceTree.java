package dev.protomolt.core.tracing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One trace in tree order: each span under its parent, siblings by start time, with its depth and
 * its offset from the trace's first span. A span whose parent was never received (a process that
 * did not export) is a root, flagged, rather than lost. The CLI prints the rows as text, the
 * console API answers them as JSON.
 */
public final class TraceTree {

  /**
   * One span in tree order.
   *
   * @param depth 0 for a root
   * @param offsetNanos start relative to the trace's earliest span
   * @param parentMissing a root whose parent span was not received
   */
  public record Row(TraceSpan span, int depth, long offsetNanos, boolean parentMissing) {}

  private TraceTree() {}

  public static List<Row> rows(List<TraceSpan> spans) {
    Set<String> ids = new HashSet<>();
    spans.forEach(s -> ids.add(s.spanId()));
    Map<String, List<TraceSpan>> children = new HashMap<>();
    List<TraceSpan> roots = new ArrayList<>();
    for (TraceSpan s : spans) {
      if (!s.parentSpanId().isEmpty() && ids.contains(s.parentSpanId())) {
        children.computeIfAbsent(s.parentSpanId(), k -> new ArrayList<>()).add(s);
      } else {
        roots.add(s);
      }
    }
    Comparator<TraceSpan> byStart = Comparator.comparingLong(TraceSpan::startNanos);
    roots.sort(byStart);
    children.values().forEach(list -> list.sort(byStart));
    long origin = spans.stream().mapToLong(TraceSpan::startNanos).min().orElse(0);
    List<Row> rows = new ArrayList<>();
    for (TraceSpan root : roots) {
      walk(root, 0, children, origin, rows);
    }
    return rows;
  }

  private static void walk(
      TraceSpan span,
      int depth,
      Map<String, List<TraceSpan>> children,
      long origin,
      List<Row> rows) {
    rows.add(
        new Row(
            span, depth, span.startNanos() - origin, depth == 0 && !span.parentSpanId().isEmpty()));
    for (TraceSpan child : children.getOrDefault(span.spanId(), List.of())) {
      walk(child, depth + 1, children, origin, rows);
    }
  }
}
