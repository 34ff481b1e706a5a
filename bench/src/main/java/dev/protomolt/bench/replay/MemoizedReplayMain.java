package dev.protomolt.bench.replay;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.bench.throughput.CorpusDocument;
import dev.protomolt.bench.throughput.PlatformRound;
import dev.protomolt.cli.DemoGraph;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.repository.replay.ReplayAudit;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A replay of N unchanged documents after a sink-only graph change, with memoization and without,
 * in one run (issue 23, decision 1812). The documents first go through the demo graph once (that
 * run records every processor's output); then the sink's configuration changes and the replay
 * state machine replays them onto a version with memoization off on every node (the baseline),
 * then onto another sink-only change with the default (processors memoize during replays). Each
 * replay lasts from its StartExecution until the last of its document executions has ended. It
 * prints both durations, documents per second and the ratio, and the machine's load.
 *
 * <p>{@code -Dbench.documents=N} takes the first N documents of the committed corpus (default
 * 100); {@code -Dbench.corpus=DIR} names the corpus directory.
 */
public final class MemoizedReplayMain {

  private static final String ACCOUNT = "bench-memo";
  private static final String DATASOURCE = "docs";

  private MemoizedReplayMain() {}

  public static void main(String[] args) throws Exception {
    int documents = Integer.getInteger("bench.documents", 100);
    Path corpusDir = Path.of(System.getProperty("bench.corpus", "corpus"));
    List<CorpusDocument> corpus = CorpusDocument.load(corpusDir, documents);
    Path data = Files.createTempDirectory("protomolt-bench-memo");
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      PipelineGraph demo = DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER);
      long first = platform.applyAndActivate(demo);
      PlatformRound.Result firstRun =
          PlatformRound.run(
              platform, ACCOUNT, DATASOURCE, DemoGraph.GRAPH_ID, first, corpus, "memo/");
      System.out.printf(
          Locale.ROOT,
          "first run: %d documents in %.1f s, %s; memo rows %d%n",
          corpus.size(),
          firstRun.nanos() / 1e9,
          firstRun.outcomes(),
          memoRows(platform));
      String machine = machineOf(firstRun.executionArns().getFirst());

      long off = platform.applyAndActivate(memoizationOff(sinkChanged(demo, "baseline")));
      Replay without = replay(platform, machine, "bench-memo-off", off, corpus.size());
      long on = platform.applyAndActivate(sinkChanged(demo, "memoized"));
      Replay with = replay(platform, machine, "bench-memo-on", on, corpus.size());

      print("replay without memoization (baseline)", without);
      print("replay with memoization", with);
      System.out.printf(
          Locale.ROOT,
          "ratio replay time without / with memoization: %.2fx; memo rows %d; load average"
              + " %.1f%n",
          without.seconds / with.seconds,
          memoRows(platform),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private record Replay(long started, double seconds, Map<String, Integer> outcomes) {}

  private static void print(String what, Replay replay) {
    System.out.printf(
        Locale.ROOT,
        "%s: %d documents in %.1f s, %.2f documents/s, %s%n",
        what,
        replay.started,
        replay.seconds,
        replay.started / replay.seconds,
        replay.outcomes);
  }

  /** The demo graph with the sink's configuration changed: the only node a replay must rerun. */
  private static PipelineGraph sinkChanged(PipelineGraph graph, String revision) {
    return nodes(
        graph,
        n ->
            n.getNodeType() == NodeType.NODE_TYPE_SINK
                ? n.toBuilder()
                    .setCustomConfig(
                        Struct.newBuilder()
                            .putFields(
                                "bench_revision",
                                Value.newBuilder().setStringValue(revision).build()))
                    .build()
                : n);
  }

  private static PipelineGraph memoizationOff(PipelineGraph graph) {
    return nodes(
        graph,
        n ->
            n.getNodeType() == NodeType.NODE_TYPE_INTAKE
                ? n
                : n.toBuilder().setMemoization(Memoization.MEMOIZATION_OFF).build());
  }

  private static PipelineGraph nodes(
      PipelineGraph graph, java.util.function.UnaryOperator<GraphNode> change) {
    PipelineGraph.Builder b = graph.toBuilder();
    for (int i = 0; i < b.getNodesCount(); i++) {
      b.setNodes(i, change.apply(b.getNodes(i)));
    }
    return b.build();
  }

  /**
   * Starts the replay state machine onto {@code version} and waits until its run has started
   * every execution and none of the graph's executions is still running.
   */
  private static Replay replay(
      LocalPlatform platform, String machine, String replayId, long version, int expected)
      throws InterruptedException {
    String input =
        """
        {"replay_id": "%s", "requested_by": "bench", "account_id": "%s",
         "selectors": {"datasource_id": "%s"}, "graph_id": "%s", "graph_version": %d,
         "page_size": 200, "dry_run": false}
        """
            .formatted(replayId, ACCOUNT, DATASOURCE, DemoGraph.GRAPH_ID, version);
    String replayMachine =
        "arn:aws:states:"
            + platform.endpoints().region()
            + ":000000000000:stateMachine:protomolt-"
            + LocalPlatform.CLUSTER
            + "-replay";
    ReplayAudit audit = new ReplayAudit(ReplayThroughputMain.database(platform));
    java.time.Instant since = java.time.Instant.now();
    long t0 = System.nanoTime();
    String arn =
        platform
            .stepFunctions()
            .startExecution(
                b ->
                    b.stateMachineArn(replayMachine)
                        .name("bench-" + UUID.randomUUID())
                        .input(input))
            .executionArn();
    long started = -1;
    while (true) {
      // A driver's poll; the figure is the time until the last execution ended.
      Thread.sleep(250);
      if (started < 0) {
        var run = audit.run(arn);
        if (run.isPresent() && run.get().status().equals("SUCCEEDED")) {
          started = run.get().counts().getOrDefault("started", 0L);
          if (started != expected) {
            throw new IllegalStateException(
                "replay " + replayId + " started " + started + " of " + expected);
          }
        }
        continue;
      }
      Map<String, Integer> outcomes = new TreeMap<>();
      for (ExecutionListItem e :
          platform
              .stepFunctions()
              .listExecutionsPaginator(b -> b.stateMachineArn(machine))
              .executions()) {
        // The replay's own executions: the ones started since it was.
        if (!e.startDate().isBefore(since)) {
          outcomes.merge(e.status().toString(), 1, Integer::sum);
        }
      }
      if (!outcomes.containsKey(ExecutionStatus.RUNNING.toString())
          && outcomes.values().stream().mapToInt(Integer::intValue).sum() >= expected) {
        return new Replay(started, (System.nanoTime() - t0) / 1e9, outcomes);
      }
    }
  }

  private static long memoRows(LocalPlatform platform) throws Exception {
    try (Connection c = ReplayThroughputMain.database(platform).getConnection();
        Statement s = c.createStatement();
        ResultSet row = s.executeQuery("SELECT count(*) FROM hop_memos")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** arn:aws:states:region:account:execution:machine:name → the machine's ARN. */
  private static String machineOf(String executionArn) {
    String m = executionArn.replace(":execution:", ":stateMachine:");
    return m.substring(0, m.lastIndexOf(':'));
  }
}
