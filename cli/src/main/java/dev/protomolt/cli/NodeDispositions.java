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
 * @param memoized per graph and node, the walks whose hop there was answered from a memo rather
 *     than by the module (disposition {@code MEMOIZED}); a hop, not where a walk ended, so not in
 *     the totals
 */
public record NodeDispositions(List<Row> rows, Map<String, Integer> totals, List<Row> memoized) {

  private static final Comparator<List<String>> BY_GRAPH_NODE_DISPOSITION =
      Comparator.<List<String>, String>comparing(k -> k.get(0))
          .thenComparing(k -> k.get(1))
          .thenComparing(k -> k.get(2));

  /** The disposition column of a node's memoized hops. */
  static final String MEMOIZED = "MEMOIZED";

  /** The node column of documents still running. */
  static final String RUNNING = "(running)";

  /** How many walks ended at {@code node} of {@code graphId} with {@code disposition}. */
  public record Row(String graphId, String node, String disposition, int documents) {}

  /** The table over {@code endingsByDoc}, plus {@code pending} documents with no ending yet. */
  static NodeDispositions of(Collection<List<DispositionWatch.Ending>> endingsByDoc, int pending) {
    Map<List<String>, Integer> counts = new TreeMap<>(BY_GRAPH_NODE_DISPOSITION);
    Map<String, Integer> totals = new TreeMap<>();
    Map<List<String>, Integer> memoized = new TreeMap<>(BY_GRAPH_NODE_DISPOSITION);
    for (List<DispositionWatch.Ending> endings : endingsByDoc) {
      for (DispositionWatch.Ending e : endings) {
        counts.merge(List.of(e.graphId(), e.node(), e.disposition()), 1, Integer::sum);
        totals.merge(e.disposition(), 1, Integer::sum);
        for (String node : e.memoized()) {
          memoized.merge(List.of(e.graphId(), node, MEMOIZED), 1, Integer::sum);
        }
      }
    }
    if (pending > 0) {
      counts.put(List.of("", RUNNING, "PENDING"), pending);
      totals.put("PENDING", pending);
    }
    return new NodeDispositions(rows(counts), Map.copyOf(totals), rows(memoized));
  }

  private static List<Row> rows(Map<List<String>, Integer> counts) {
    return counts.entrySet().stream()
        .map(c -> new Row(c.getKey().get(0), c.getKey().get(1), c.getKey().get(2), c.getValue()))
        .toList();
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
    if (!memoized.isEmpty()) {
      out.println("memoized hops per node (answered from a stored output, no module called):");
      for (Row r : memoized) {
        out.printf(
            "  %-16s %-20s %-24s %9d%n",
            r.graphId().isEmpty() ? "-" : r.graphId(), r.node(), r.disposition(), r.documents());
      }
    }
  }
}
