package dev.protomolt.cli;

import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.otlp.LocalTraces;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt trace <doc-id>}: the document's trace as the local collector kept it (decision
 * 1795), read from the data folder, so it works while {@code up} runs and after it stopped.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description =
        "Print a document's trace as a tree: each span's name, service, start, duration and"
            + " status.")
final class TraceCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Parameters(paramLabel = "DOC-ID", description = "The document id (as `doc manifest` takes it).")
  String docId;

  @Override
  public Integer call() {
    if (docId.isBlank()) {
      throw CommandFailure.refused("DOC-ID: must not be blank");
    }
    LocalTraces traces = LocalTraces.in(data.settings().dataDir());
    List<TraceSpan> spans = traces.traceOf(docId);
    if (spans.isEmpty()) {
      throw CommandFailure.refused(
          "no trace of document '"
              + docId
              + "' in "
              + traces.file()
              + ": the local collector kept no span naming it (was it uploaded to the platform"
              + " `up` runs with this --data folder?)");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("trace " + spans.getFirst().traceId() + " (" + spans.size() + " spans)");
    TraceText.render(spans).forEach(out::println);
    out.flush();
    return 0;
  }
}
