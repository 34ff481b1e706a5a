package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.otlp.LocalTraces;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code protomolt trace} reads what the local collector kept under the data folder; it needs no
 * running platform, so the spans here are kept the way the collector keeps them.
 */
class TraceCommandTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  @TempDir Path data;

  @Test
  void theDocumentsTraceIsPrintedAsATreeWithServicesTimingsAndStatus() {
    LocalTraces.in(data)
        .append(
            List.of(
                span("b", "a", "complete", "complete", 3_000_000, 5_500_000, "ERROR", "Boom"),
                span("a", "", "intake", "intake", 1_000_000, 2_000_000, "UNSET", ""),
                span("c", "b", "store.save", "complete", 4_000_000, 4_500_000, "UNSET", ""),
                span("z", "gone", "orphan", "gateway", 6_000_000, 7_000_000, "UNSET", ""),
                new TraceSpan(
                    "0af7651916cd43dd8448eb211c80319c",
                    "x",
                    "",
                    "other",
                    "intake",
                    0,
                    1,
                    "UNSET",
                    "",
                    Map.of())));

    CommandRun run = CommandRun.of("trace", "doc-1", "--data", data.toString());

    assertThat(run.status()).as(run.toString()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.getFirst()).isEqualTo("trace " + TRACE + " (4 spans)");
    assertThat(lines.get(2)).startsWith("intake ").contains("+0.0 ms").contains("1.0 ms");
    assertThat(lines.get(3)).startsWith("  complete ").contains("2.5 ms").endsWith("ERROR Boom");
    assertThat(lines.get(4)).startsWith("    store.save ").contains("complete");
    assertThat(lines.get(5)).startsWith("orphan (parent not received)").contains("gateway");
    assertThat(run.out()).doesNotContain("other");
  }

  @Test
  void aDocumentWithoutATraceIsRefusedNamingWhereItLooked() {
    CommandRun run = CommandRun.of("trace", "doc-none", "--data", data.toString());

    assertThat(run.status()).as(run.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(run.err())
        .contains("no trace of document 'doc-none'")
        .contains(LocalTraces.in(data).file().toString());
  }

  private static TraceSpan span(
      String id,
      String parent,
      String name,
      String service,
      long start,
      long end,
      String status,
      String message) {
    return new TraceSpan(
        TRACE,
        id,
        parent,
        name,
        service,
        start,
        end,
        status,
        message,
        id.equals("b") ? Map.of("protomolt.doc_id", "doc-1") : Map.of());
  }
}
