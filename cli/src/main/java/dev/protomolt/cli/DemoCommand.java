package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt demo [DIR]}: starts the platform, runs the demo graph over the bundled corpus (or
 * every file in DIR), prints a summary and stops. Exit status 0 only if every document ended.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run the demo graph (parser → chunker → embedder → index sink) over a corpus.")
final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = "Ingest every file in DIR instead of the bundled corpus.")
  Path corpusDir;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = ".protomolt",
      description = "The local cloud's data folder (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(
      names = "--query",
      defaultValue = "tide",
      description = "The text searched for the summary's sample hit (default: ${DEFAULT-VALUE}).")
  String query;

  @Option(
      names = "--timeout-seconds",
      defaultValue = "300",
      description = "How long to wait for the documents (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Override
  public Integer call() throws InterruptedException {
    if (timeoutSeconds < 1) {
      throw new ParameterException(
          spec.commandLine(), "--timeout-seconds: must be at least 1, got " + timeoutSeconds);
    }
    Map<String, byte[]> corpus;
    try {
      corpus = corpusDir == null ? DemoRun.bundledCorpus() : DemoRun.corpusIn(corpusDir);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    long started = System.nanoTime();
    LocalCloudSettings settings = LocalCloudSettings.fromSystemProperties().withDataDir(data);
    try (LocalPlatform platform = PlatformStart.start(settings, 0)) {
      double startup = (System.nanoTime() - started) / 1e9;
      out.printf("platform up in %.1f s; ingesting %d documents%n", startup, corpus.size());
      out.println("console: " + platform.consoleUrl());
      out.flush();
      long ingesting = System.nanoTime();
      ProgressLine progress = ProgressLine.onConsole(out, "processing", corpus.size());
      DemoRun.Summary summary =
          DemoRun.run(
              platform, corpus, query, Duration.ofSeconds(timeoutSeconds), progress::update);
      progress.finish(
          summary.documents().size() - summary.dispositions().getOrDefault("PENDING", 0));
      double seconds = (System.nanoTime() - ingesting) / 1e9;
      out.printf("documents: %d%n", summary.documents().size());
      summary
          .documents()
          .forEach(d -> out.printf("  %-28s %-14s %s%n", d.name(), d.disposition(), d.docId()));
      out.println("dispositions: " + summary.dispositions());
      summary.perNode().print(out);
      out.println(
          "parts stored: "
              + summary.partsStored()
              + " (the intake copies and every node's stored copies)");
      out.println("documents indexed: " + summary.indexed());
      out.printf(
          "throughput: %.2f documents/s over %.1f s from first upload to last disposition"
              + " (%.1f s start-up before that)%n",
          summary.documents().size() / seconds, seconds, startup);
      out.println(
          summary
              .sampleHit()
              .map(h -> "search \"" + query + "\": " + h.title() + " — " + h.snippet())
              .orElse("search \"" + query + "\": no hit"));
      if (!summary.complete()) {
        out.printf(
            "%d documents had no terminal disposition after %d s; give them longer with"
                + " --timeout-seconds N%n",
            summary.dispositions().get("PENDING"), timeoutSeconds);
      }
      out.flush();
      return summary.complete() ? 0 : 1;
    }
  }
}
