package dev.protomolt.bench.pipeline;

import dev.protomolt.bench.throughput.CorpusDocument;
import dev.protomolt.bench.throughput.PlatformRound;
import dev.protomolt.cli.DemoGraph;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Documents per second through the demo graph (parser → chunker → embedder → index sink) on the
 * whole local platform, with every edge PERSIST (the baseline: each hop saves the document at its
 * destination address and passes a reference) against every edge MEMORY (the document rides
 * inline in the execution state), in the same JVM and run. The seed says MEMORY is about 6× faster
 * on light documents.
 *
 * <p>Each edge behaviour has its own graph on its own datasource, so one upload is admitted to one
 * graph. Rounds alternate PERSIST and MEMORY so the shared machine's load drifts over both alike.
 * A round uploads a batch of light documents (1–3 KB of text) and ends when the last execution has
 * ended; its rate is documents over the time from the first upload to the last end.
 */
public final class EdgeBehaviorThroughputMain {

  private static final String ACCOUNT = "bench";
  private static final double SEED_RATIO = 6.0;
  private static final List<String> WORDS =
      List.of(
          "harbour",
          "beacon",
          "ledger",
          "tide",
          "granite",
          "lantern",
          "current",
          "anchor",
          "meridian",
          "shoal",
          "keeper",
          "signal");

  private EdgeBehaviorThroughputMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int perRound = quick ? 30 : 100;
    int rounds = quick ? 1 : 2;
    int warmup = quick ? 10 : 30;
    Path data = Files.createTempDirectory("protomolt-bench-edges");
    Random random = new Random(42);
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      Map<TransportType, Long> versions = new LinkedHashMap<>();
      for (TransportType edges :
          List.of(TransportType.TRANSPORT_TYPE_PERSIST, TransportType.TRANSPORT_TYPE_MEMORY)) {
        platform.provisionAccount(ACCOUNT, datasource(edges));
        versions.put(edges, platform.applyAndActivate(graph(edges)));
      }
      int sequence = 0;
      for (TransportType edges : versions.keySet()) {
        Round warm = round(platform, edges, versions.get(edges), warmup, sequence, random);
        sequence += warmup;
        System.out.printf(
            Locale.ROOT,
            "warm-up %s: %d documents in %.1f s, %s%n",
            name(edges),
            warmup,
            warm.nanos() / 1e9,
            warm.describe());
      }
      Map<TransportType, Long> nanos = new HashMap<>();
      Map<TransportType, Integer> documents = new HashMap<>();
      for (int r = 0; r < rounds; r++) {
        for (TransportType edges : versions.keySet()) {
          Round done = round(platform, edges, versions.get(edges), perRound, sequence, random);
          sequence += perRound;
          nanos.merge(edges, done.nanos(), Long::sum);
          documents.merge(edges, perRound, Integer::sum);
          System.out.printf(
              Locale.ROOT,
              "round %d %s: %d documents in %.1f s, %s%n",
              r + 1,
              name(edges),
              perRound,
              done.nanos() / 1e9,
              done.describe());
        }
      }
      double persist =
          rate(
              documents.get(TransportType.TRANSPORT_TYPE_PERSIST),
              nanos.get(TransportType.TRANSPORT_TYPE_PERSIST));
      double memory =
          rate(
              documents.get(TransportType.TRANSPORT_TYPE_MEMORY),
              nanos.get(TransportType.TRANSPORT_TYPE_MEMORY));
      System.out.printf(
          Locale.ROOT,
          "demo graph, all-PERSIST edges (baseline): %.2f documents/s%n"
              + "demo graph, all-MEMORY edges: %.2f documents/s%n"
              + "ratio MEMORY / PERSIST: %.2fx (seed: about %.0fx on light documents)%n"
              + "load average at the end: %.2f on %d cores%n",
          persist,
          memory,
          memory / persist,
          SEED_RATIO,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          Runtime.getRuntime().availableProcessors());
    }
  }

  private static double rate(int documents, long nanos) {
    return documents / (nanos / 1e9);
  }

  private static String name(TransportType edges) {
    return edges == TransportType.TRANSPORT_TYPE_MEMORY ? "MEMORY" : "PERSIST";
  }

  private static String datasource(TransportType edges) {
    return "light-" + name(edges).toLowerCase(Locale.ROOT);
  }

  /** The demo graph with every edge of {@code edges}, under its own id and datasource. */
  static PipelineGraph graph(TransportType edges) {
    return graph(ACCOUNT, datasource(edges), "demo-" + name(edges).toLowerCase(Locale.ROOT), edges);
  }

  /** The demo graph for {@code accountId}'s {@code datasourceId} with every edge of {@code edges}. */
  public static PipelineGraph graph(
      String accountId, String datasourceId, String graphId, TransportType edges) {
    PipelineGraph demo = DemoGraph.of(accountId, datasourceId, LocalPlatform.CLUSTER);
    PipelineGraph.Builder graph = demo.toBuilder().setGraphId(graphId).clearEdges();
    for (GraphEdge edge : demo.getEdgesList()) {
      graph.addEdges(edge.toBuilder().setTransportType(edges));
    }
    return graph.build();
  }

  /** How one batch went: its time and how its executions ended. */
  private record Round(long nanos, Map<String, Integer> outcomes) {
    String describe() {
      return "outcomes " + outcomes;
    }
  }

  private static Round round(
      LocalPlatform platform,
      TransportType edges,
      long version,
      int count,
      int firstSequence,
      Random random)
      throws InterruptedException {
    List<CorpusDocument> documents = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      documents.add(
          new CorpusDocument(
              "doc-" + (firstSequence + i) + ".txt",
              "text/plain",
              lightDocument(firstSequence + i, random)));
    }
    PlatformRound.Result done =
        PlatformRound.run(
            platform,
            ACCOUNT,
            datasource(edges),
            graph(edges).getGraphId(),
            version,
            documents,
            "");
    return new Round(done.nanos(), done.outcomes());
  }

  /** One to three kilobytes of plain text. */
  private static byte[] lightDocument(int n, Random random) {
    StringBuilder text = new StringBuilder("Light document ").append(n).append("\n\n");
    int words = 150 + random.nextInt(300);
    for (int w = 0; w < words; w++) {
      text.append(WORDS.get(random.nextInt(WORDS.size()))).append(w % 10 == 9 ? ".\n" : " ");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
