package dev.protomolt.cli;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dispositions per node: for each graph node where documents' walks stopped, how many ended there
 * with each terminal disposition, and the totals per disposition. Built from {@link
 * DispositionWatch.Ending}s, so it shows what the runtime recorded, not what the graph intended. A
 * document intake admitted to two graphs counts once on each graph's row; a document with no
 * terminal disposition yet is one {@code PENDING} row.
 *
 * @param rows one row per graph, node and disposition, in graph, node, disposition order
 * @param totals documents (walks) per disposition
 */
public record NodeDispositions(List<Row> rows, Map<String, Integer> totals) {

  /** The node column of documents still running. */
  static final String RUNNING = "(running)";

  /** How many walks ended at {@code node} of {@code graphId} with {@code disposition}. */
  public record Row(String graphId, String node, String disposition, int documents) {}

  /** The table over {@code endingsByDoc}, plus {@code pending} documents with no ending yet. */
  static NodeDispositions of(Collection<List<DispositionWatch.Ending>> endingsByDoc, int pending) {
    Map<List<String>, Integer> counts =
        new TreeMap<>(
            Comparator.<List<String>, String>comparing(k -> k.get(0))
                .thenComparing(k -> k.get(1))
                .thenComparing(k -> k.get(2)));
    Map<String, Integer> totals = new TreeMap<>();
    for (List<DispositionWatch.Ending> endings : endingsByDoc) {
      for (DispositionWatch.Ending e : endings) {
        counts.merge(List.of(e.graphId(), e.node(), e.disposition()), 1, Integer::sum);
        totals.merge(e.disposition(), 1, Integer::sum);
      }
    }
    if (pending > 0) {
      counts.put(List.of("", RUNNING, "PENDING"), pending);
      totals.put("PENDING", pending);
    }
    List<Row> rows =
        counts.entrySet().stream()
            .map(
                c -> new Row(c.getKey().get(0), c.getKey().get(1), c.getKey().get(2), c.getValue()))
            .toList();
    return new NodeDispositions(rows, Map.copyOf(totals));
  }

  /** Walks counted in the table, over every disposition. */
  public int total() {
    return totals.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Prints the table: a header, one line per row, then the totals per disposition and in all. */
  void print(PrintWriter out) {
    out.println("dispositions per node:");
    out.printf("  %-16s %-20s %-24s %9s%n", "graph", "node", "disposition", "documents");
    for (Row r : rows) {
      out.printf(
          "  %-16s %-20s %-24s %9d%n",
          r.graphId().isEmpty() ? "-" : r.graphId(), r.node(), r.disposition(), r.documents());
    }
    new TreeMap<>(totals)
        .forEach(
            (disposition, n) ->
                out.printf("  %-16s %-20s %-24s %9d%n", "total", "", disposition, n));
    out.printf("  %-16s %-20s %-24s %9d%n", "total", "", "all", total());
  }
}
