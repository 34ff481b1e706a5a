package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-node disposition table: counts per graph, node and disposition, totals, printing. */
class NodeDispositionsTest {

  private static DispositionWatch.Ending ending(String graph, String node, String disposition) {
    return new DispositionWatch.Ending(graph, node, disposition);
  }

  @Test
  void countsEachWalkAtItsNodeAndTotalsPerDisposition() {
    NodeDispositions table =
        NodeDispositions.of(
            List.of(
                List.of(ending("demo", "index", "SINK_REACHED")),
                List.of(ending("demo", "parse", "REJECTED")),
                List.of(
                    ending("demo", "index", "SINK_REACHED"), ending("other", "filter", "DROPPED")),
                List.of(ending("", DispositionWatch.NO_EXECUTION, "UNBOUND"))),
            2);

    assertThat(table.rows())
        .containsExactly(
            new NodeDispositions.Row("", DispositionWatch.NO_EXECUTION, "UNBOUND", 1),
            new NodeDispositions.Row("", NodeDispositions.RUNNING, "PENDING", 2),
            new NodeDispositions.Row("demo", "index", "SINK_REACHED", 2),
            new NodeDispositions.Row("demo", "parse", "REJECTED", 1),
            new NodeDispositions.Row("other", "filter", "DROPPED", 1));
    assertThat(table.totals())
        .containsOnly(
            Map.entry("SINK_REACHED", 2),
            Map.entry("REJECTED", 1),
            Map.entry("DROPPED", 1),
            Map.entry("UNBOUND", 1),
            Map.entry("PENDING", 2));
    assertThat(table.total()).isEqualTo(7);

    StringWriter text = new StringWriter();
    table.print(new PrintWriter(text, true));
    assertThat(text.toString())
        .startsWith("dispositions per node:")
        .containsPattern("demo\\s+parse\\s+REJECTED\\s+1\\n")
        .containsPattern("demo\\s+index\\s+SINK_REACHED\\s+2\\n")
        .containsPattern("-\\s+\\(running\\)\\s+PENDING\\s+2\\n")
        .containsPattern("total\\s+DROPPED\\s+1\\n")
        .containsPattern("total\\s+all\\s+7\\n");
  }

  @Test
  void oneAdmissionShowsItsDispositionAloneAndSeveralNameTheirGraphs() {
    assertThat(DispositionWatch.describe(List.of(ending("demo", "index", "SINK_REACHED"))))
        .isEqualTo("SINK_REACHED");
    assertThat(
            DispositionWatch.describe(
                List.of(ending("a", "index", "SINK_REACHED"), ending("b", "parse", "REJECTED"))))
        .isEqualTo("a:SINK_REACHED, b:REJECTED");
  }

  @Test
  void memoizedHopsAreCountedPerNodeBesideTheEndingsAndNamedOnTheDocumentsLine() {
    DispositionWatch.Ending replayed =
        new DispositionWatch.Ending("demo", "index", "SINK_REACHED", List.of("parse", "chunk"));
    NodeDispositions table =
        NodeDispositions.of(
            List.of(
                List.of(replayed),
                List.of(
                    new DispositionWatch.Ending(
                        "demo", "index", "SINK_REACHED", List.of("parse")))),
            0);

    assertThat(table.rows())
        .containsExactly(new NodeDispositions.Row("demo", "index", "SINK_REACHED", 2));
    assertThat(table.total()).as("a memoized hop is not where a walk ended").isEqualTo(2);
    assertThat(table.memoized())
        .containsExactly(
            new NodeDispositions.Row("demo", "chunk", NodeDispositions.MEMOIZED, 1),
            new NodeDispositions.Row("demo", "parse", NodeDispositions.MEMOIZED, 2));
    StringWriter text = new StringWriter();
    table.print(new PrintWriter(text, true));
    assertThat(text.toString())
        .contains("memoized hops per node")
        .containsPattern("demo\\s+parse\\s+MEMOIZED\\s+2\\n");
    assertThat(DispositionWatch.describe(List.of(replayed))).isEqualTo("SINK_REACHED");
    assertThat(DispositionWatch.memoNote(List.of(replayed))).isEqualTo(" (memoized: parse, chunk)");
    assertThat(DispositionWatch.memoNote(null)).isEmpty();
    assertThat(
            NodeDispositions.of(List.of(List.of(ending("demo", "index", "SINK_REACHED"))), 0)
                .memoized())
        .isEmpty();
  }

  @Test
  void aStateLabelIsEverythingBeforeTheLastDot() {
    assertThat(DispositionWatch.labelOf("parse.DeadLettered")).isEqualTo("parse");
    assertThat(DispositionWatch.labelOf("Invoice_intake_2024--3f2a1b9c0d.Rejected"))
        .isEqualTo("Invoice_intake_2024--3f2a1b9c0d");
    assertThat(DispositionWatch.labelOf("Start")).isEqualTo("Start");
  }
}
