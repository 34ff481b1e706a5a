package dev.protomolt.bench.throughput;

import dev.protomolt.bench.pipeline.EdgeBehaviorThroughputMain;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.meter.LocalCloudMeter;
import dev.protomolt.proto.config.v1.TransportType;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The floor and the overhead in one run, on the committed corpus (bench/corpus): (a) the four
 * sample modules' own work called in this thread, (b) the whole local platform with every edge
 * PERSIST, (c) every edge MEMORY. Prints documents per second, process CPU per document, the
 * ratios b/a and c/a, what each platform document cost in S3 requests, Lambda invocations, state
 * transitions and Kafka records, and that at AWS list prices (aws-prices-us-east-1.properties).
 *
 * <p>Every part first runs a warm-up pass of its own so the JIT has compiled the hot paths before
 * the measured pass. CPU is the whole process's, so (b) and (c) include the local cloud's own
 * servers (S3Proxy, Kafka, Postgres's clients, the Step Functions runtime) next to the platform,
 * as they share the JVM; the Postgres server itself is a separate process and is not counted.
 */
public final class ThroughputCostMain {

  private static final String ACCOUNT = "bench";

  private ThroughputCostMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    Path corpusDir = Path.of(System.getProperty("bench.corpus", "corpus"));
    // -Dbench.documents=N runs the first N (formats interleaved); the default is the whole corpus.
    int documents = Integer.getInteger("bench.documents", 0);
    int limit = documents > 0 ? documents : quick ? 40 : 0;
    List<CorpusDocument> corpus = CorpusDocument.load(corpusDir, limit);
    List<CorpusDocument> warmup = corpus.subList(0, Math.min(corpus.size(), quick ? 10 : 60));
    AwsPrices prices = AwsPrices.load();
    Path data = Files.createTempDirectory("protomolt-bench-throughput");
    System.out.printf(
        Locale.ROOT,
        "corpus: %d documents, %d bytes (%s)%n",
        corpus.size(),
        corpus.stream().mapToLong(d -> d.bytes().length).sum(),
        corpusDir.toAbsolutePath().normalize());

    RunFigures floor;
    try (InProcessModules modules = new InProcessModules(data.resolve("floor-index"))) {
      modules.run(warmup, "warm/");
      long cpu = ProcessCpu.nanos();
      long start = System.nanoTime();
      Map<String, Integer> outcomes = modules.run(corpus, "run/");
      floor =
          new RunFigures(
              "(a) the four modules in-process",
              corpus.size(),
              System.nanoTime() - start,
              ProcessCpu.nanos() - cpu,
              outcomes,
              Map.of(),
              0,
              Map.of());
    }
    System.out.println(floor.headline());

    List<RunFigures> platformRuns = new ArrayList<>();
    int partitions;
    try (LocalPlatform platform =
            LocalPlatform.start(LocalCloudSettings.ephemeral(data.resolve("platform")), 0);
        KafkaRecords kafka = new KafkaRecords(platform.endpoints().kafkaBootstrapServers())) {
      List<TransportType> modes =
          List.of(TransportType.TRANSPORT_TYPE_PERSIST, TransportType.TRANSPORT_TYPE_MEMORY);
      long[] versions = new long[modes.size()];
      for (int i = 0; i < modes.size(); i++) {
        platform.provisionAccount(ACCOUNT, datasource(modes.get(i)));
        versions[i] = platform.applyAndActivate(graph(modes.get(i)));
      }
      for (int i = 0; i < modes.size(); i++) {
        PlatformRound.Result warm =
            PlatformRound.run(
                platform,
                ACCOUNT,
                datasource(modes.get(i)),
                graph(modes.get(i)).getGraphId(),
                versions[i],
                warmup,
                "warm/");
        System.out.printf(
            Locale.ROOT,
            "warm-up %s: %d documents in %.1f s, outcomes %s%n",
            name(modes.get(i)),
            warmup.size(),
            warm.nanos() / 1e9,
            warm.outcomes());
      }
      for (int i = 0; i < modes.size(); i++) {
        TransportType edges = modes.get(i);
        Map<String, Long> meter = LocalCloudMeter.snapshot();
        Map<TopicPartition, Long> offsets = kafka.endOffsets();
        long cpu = ProcessCpu.nanos();
        PlatformRound.Result run =
            PlatformRound.run(
                platform,
                ACCOUNT,
                datasource(edges),
                graph(edges).getGraphId(),
                versions[i],
                corpus,
                "run/");
        long cpuNanos = ProcessCpu.nanos() - cpu;
        Map<String, Long> requests = LocalCloudMeter.since(meter);
        platformRuns.add(
            new RunFigures(
                (i == 0 ? "(b)" : "(c)") + " the platform, all-" + name(edges) + " edges",
                corpus.size(),
                run.nanos(),
                cpuNanos,
                run.outcomes(),
                requests,
                PlatformRound.stateTransitions(platform, run.executionArns()),
                kafka.since(offsets)));
      }
      partitions = kafka.partitions();
    }

    System.out.println();
    System.out.println(floor.headline());
    for (RunFigures run : platformRuns) {
      System.out.println(run.headline());
      System.out.printf(
          Locale.ROOT,
          "  ratio to (a): CPU per document %.2fx, documents/s %.2fx%n",
          run.cpuMillisPerDocument() / floor.cpuMillisPerDocument(),
          run.documentsPerSecond() / floor.documentsPerSecond());
      System.out.println(run.requests());
      System.out.println(run.costPerMillion(prices));
    }
    System.out.printf(
        Locale.ROOT,
        "MSK Serverless, not per document: cluster $%.2f/h + %d partitions x $%.4f/h = $%.2f/h%n"
            + "load average at the end: %.2f on %d cores%n",
        prices.mskPerClusterHour(),
        partitions,
        prices.mskPerPartitionHour(),
        prices.mskPerClusterHour() + partitions * prices.mskPerPartitionHour(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors());
  }

  private static String name(TransportType edges) {
    return edges == TransportType.TRANSPORT_TYPE_MEMORY ? "MEMORY" : "PERSIST";
  }

  private static String datasource(TransportType edges) {
    return "corpus-" + name(edges).toLowerCase(Locale.ROOT);
  }

  private static dev.protomolt.proto.config.v1.PipelineGraph graph(TransportType edges) {
    return EdgeBehaviorThroughputMain.graph(
        ACCOUNT, datasource(edges), "corpus-" + name(edges).toLowerCase(Locale.ROOT), edges);
  }
}
