package dev.protomolt.bench.backlog;

import dev.protomolt.bench.throughput.CorpusDocument;
import dev.protomolt.bench.throughput.PlatformRound;
import dev.protomolt.cli.DemoGraph;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Drain rate of a backlog (issue 17): with every module stopped, N documents are ingested through
 * the demo graph and left until each waits at its first module; then the modules start, and the
 * rate is N over the time from their start to the last execution's end. The baseline, in the same
 * run and on the same platform, is the same N documents (new names, same texts) ingested while the
 * modules run, timed from the first upload to the last end. Both use the platform's own sample
 * workers, so the only difference is whether the work waited in the queue first.
 */
public final class BacklogDrainMain {

  private static final String ACCOUNT = "bench";

  private BacklogDrainMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    // The 2,000 by default; -Dbench.documents=N for another size (0, the pom's default,
    // means unset).
    int asked = Integer.getInteger("bench.documents", 0);
    int documents = asked > 0 ? asked : quick ? 100 : 2_000;
    int warmup = quick ? 10 : 30;
    Path data = Files.createTempDirectory("protomolt-bench-backlog");
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      long flowing = activate(platform, "flowing");
      long backlog = activate(platform, "backlog");

      PlatformRound.Result warm =
          PlatformRound.run(
              platform, ACCOUNT, "flowing", graphId("flowing"), flowing, corpus(warmup), "warm-");
      System.out.printf(
          Locale.ROOT,
          "warm-up: %d documents in %.1f s, %s%n",
          warmup,
          warm.nanos() / 1e9,
          warm.outcomes());

      PlatformRound.Result baseline =
          PlatformRound.run(
              platform, ACCOUNT, "flowing", graphId("flowing"), flowing, corpus(documents), "");

      platform.stopSampleWorkers();
      long queueingFrom = System.nanoTime();
      Set<String> queued =
          PlatformRound.upload(platform, ACCOUNT, "backlog", corpus(documents), "");
      awaitQueued(platform, backlog, queued);
      System.out.printf(
          Locale.ROOT,
          "backlog: %d documents queued at their first module in %.1f s, modules stopped%n",
          documents,
          (System.nanoTime() - queueingFrom) / 1e9);
      long modulesStart = System.nanoTime();
      platform.startSampleWorkers();
      PlatformRound.Result drained =
          PlatformRound.await(platform, ACCOUNT, graphId("backlog"), backlog, queued, modulesStart);

      double base = rate(documents, baseline.nanos());
      double drain = rate(documents, drained.nanos());
      System.out.printf(
          Locale.ROOT,
          "no backlog (baseline): %d documents in %.1f s, %.2f documents/s, %s%n"
              + "backlog drained after modules start: %d documents in %.1f s, %.2f documents/s,"
              + " %s%n"
              + "ratio drain / baseline: %.2fx%n"
              + "load average at the end: %.2f on %d cores%n",
          documents,
          baseline.nanos() / 1e9,
          base,
          baseline.outcomes(),
          documents,
          drained.nanos() / 1e9,
          drain,
          drained.outcomes(),
          drain / base,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          Runtime.getRuntime().availableProcessors());
    }
  }

  private static long activate(LocalPlatform platform, String datasource) {
    platform.provisionAccount(ACCOUNT, datasource);
    PipelineGraph demo = DemoGraph.of(ACCOUNT, datasource, LocalPlatform.CLUSTER);
    return platform.applyAndActivate(demo.toBuilder().setGraphId(graphId(datasource)).build());
  }

  private static String graphId(String datasource) {
    return "drain-" + datasource;
  }

  /** Waits until every document's execution waits on its first module's Work task. */
  private static void awaitQueued(LocalPlatform platform, long version, Set<String> docIds)
      throws InterruptedException {
    Map<String, String> arnByDoc = new HashMap<>();
    List<String> waiting = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofMinutes(45).toNanos();
    while (waiting.size() < docIds.size()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            waiting.size() + " of " + docIds.size() + " documents queued within 45 minutes");
      }
      Thread.sleep(500);
      for (LocalPlatform.Admission a : platform.admissions(ACCOUNT)) {
        if (a.graphId().equals(graphId("backlog"))
            && a.graphVersion() == version
            && docIds.contains(a.docId())
            && !a.executionArn().isEmpty()) {
          arnByDoc.putIfAbsent(a.docId(), a.executionArn());
        }
      }
      waiting.clear();
      for (String arn : arnByDoc.values()) {
        List<HistoryEvent> newest =
            platform
                .stepFunctions()
                .getExecutionHistory(b -> b.executionArn(arn).reverseOrder(true).maxResults(1))
                .events();
        // A waitForTaskToken task is submitted, then silent until a module answers it.
        if (!newest.isEmpty() && newest.get(0).typeAsString().equals("TaskSubmitted")) {
          waiting.add(arn);
        }
      }
    }
  }

  /** {@code count} light text documents, the same texts in every call. */
  private static List<CorpusDocument> corpus(int count) {
    List<CorpusDocument> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String text =
          "Backlog document "
              + i
              + ".\n\nThe harbour keeper logged the tide at the granite beacon, and the lantern"
              + " signal answered from the shoal.\n";
      out.add(
          new CorpusDocument(
              "doc-" + i + ".txt", "text/plain", text.getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }

  private static double rate(int documents, long nanos) {
    return documents / (nanos / 1e9);
  }
}
