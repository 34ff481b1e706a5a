package dev.protomolt.bench.replay;

import dev.protomolt.cli.DemoGraph;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.replay.ReplayAudit;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Candidates per second and executions started per second of a replay through the replay state
 * machine (a Validate step, then keyset pages, each a Lambda invocation on the local Step
 * Functions runtime), next to a baseline measured in the same run: the same machine over the
 * first {@code bench.replay.baseline} documents (default 500; the 14.5 starts/s was
 * measured at 601), replayed before the rest are stored. A dry run of the large selection gives its paging rate without
 * starts. The sample workers are stopped, so the started executions wait at their first module
 * instead of competing with the replay for the machine. It prints the history-event count of the
 * longest replay execution against Step Functions' 25,000.
 *
 * <p>{@code -Dbench.replay.candidates=N} sets the large selection (default 500; the issue asks
 * 20,000).
 */
public final class ReplayThroughputMain {

  private static final String ACCOUNT = "bench-replay";
  private static final String DATASOURCE = "stored";
  private static final int HISTORY_LIMIT = 25_000;

  private ReplayThroughputMain() {}

  public static void main(String[] args) throws Exception {
    int candidates = Integer.getInteger("bench.replay.candidates", 500);
    int baseline = Integer.getInteger("bench.replay.baseline", 500);
    int pageSize = Integer.getInteger("bench.replay.pageSize", 200);
    Path data = Files.createTempDirectory("protomolt-bench-replay");
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      platform.stopSampleWorkers();
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      long version =
          platform.applyAndActivate(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER));
      int first = Math.min(baseline, candidates);
      seed(platform, 0, first);
      Run small = machine(platform, "bench-baseline", version, pageSize, false);
      long seeded = System.nanoTime();
      seed(platform, first, candidates);
      System.out.printf(
          Locale.ROOT,
          "stored %d more intake copies in %.1f s%n",
          candidates - first,
          (System.nanoTime() - seeded) / 1e9);
      Run dry = machine(platform, "bench-dry", version, pageSize, true);
      Run paged = machine(platform, "bench-machine", version, pageSize, false);

      System.out.printf(
          Locale.ROOT,
          "baseline, replay state machine (page size %d): %d candidates, %d started in %.1f s:"
              + " %.1f candidates/s, %.1f started/s%n",
          pageSize,
          small.candidates,
          small.started,
          small.seconds,
          small.candidates / small.seconds,
          small.started / small.seconds);
      System.out.printf(
          Locale.ROOT,
          "replay state machine, dry run (page size %d): %d candidates in %.1f s: %.1f"
              + " candidates/s%n",
          pageSize,
          dry.candidates,
          dry.seconds,
          dry.candidates / dry.seconds);
      System.out.printf(
          Locale.ROOT,
          "replay state machine (page size %d): %d candidates, %d started in %.1f s: %.1f"
              + " candidates/s, %.1f started/s%n",
          pageSize,
          paged.candidates,
          paged.started,
          paged.seconds,
          paged.candidates / paged.seconds,
          paged.started / paged.seconds);
      System.out.printf(
          Locale.ROOT,
          "ratio started/s %d / %d candidates: %.2fx (the issue's one-shot function: 14.5/s);"
              + " longest replay execution: %d history events of %,d; load average %.1f%n",
          candidates,
          baseline,
          (paged.started / paged.seconds) / (small.started / small.seconds),
          Math.max(small.historyEvents, Math.max(dry.historyEvents, paged.historyEvents)),
          HISTORY_LIMIT,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /**
   * Stores intake copies {@code from} to {@code to} directly in the store (no upload, no intake
   * execution): candidates are found in the ledger, so this is what a replay reads.
   */
  private static void seed(LocalPlatform platform, int from, int to) {
    for (int i = from; i < to; i++) {
      platform
          .store()
          .save(
              Saves.intake(
                      ACCOUNT,
                      DATASOURCE,
                      SampleDocs.document(String.format("doc-%06d", i), i, 512, "a"))
                  .build());
    }
  }

  private record Run(long candidates, long started, double seconds, long historyEvents) {}

  /** The local cloud's ledger, reached as any client of it would: from the printed endpoints. */
  static DataSource database(LocalPlatform platform) {
    PGSimpleDataSource db = new PGSimpleDataSource();
    db.setURL(platform.endpoints().postgresJdbcUrl());
    db.setUser(platform.endpoints().postgresUser());
    db.setPassword(platform.endpoints().postgresPassword());
    return db;
  }

  /** Starts the replay state machine and waits for the run's audit row to say it ended. */
  private static Run machine(
      LocalPlatform platform, String replayId, long version, int pageSize, boolean dryRun)
      throws InterruptedException {
    String input =
        """
        {"replay_id": "%s", "requested_by": "bench", "account_id": "%s",
         "selectors": {"datasource_id": "%s"}, "graph_id": "%s", "graph_version": %d,
         "page_size": %d, "dry_run": %s}
        """
            .formatted(
                replayId, ACCOUNT, DATASOURCE, DemoGraph.GRAPH_ID, version, pageSize, dryRun);
    String machineArn =
        "arn:aws:states:"
            + platform.endpoints().region()
            + ":000000000000:stateMachine:protomolt-"
            + LocalPlatform.CLUSTER
            + "-replay";
    ReplayAudit audit = new ReplayAudit(database(platform));
    Instant startedAt = Instant.now();
    long t0 = System.nanoTime();
    String arn =
        platform
            .stepFunctions()
            .startExecution(
                b -> b.stateMachineArn(machineArn).name("bench-" + UUID.randomUUID()).input(input))
            .executionArn();
    while (true) {
      var run = audit.run(arn);
      if (run.isPresent() && run.get().status().equals("SUCCEEDED")) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Run(
            run.get().candidates(),
            run.get().counts().getOrDefault("started", 0L),
            seconds,
            longestHistory(platform.stepFunctions(), machineArn, startedAt));
      }
      DescribeExecutionResponse described =
          platform.stepFunctions().describeExecution(b -> b.executionArn(arn));
      ExecutionStatus status = described.status();
      if (status == ExecutionStatus.FAILED || status == ExecutionStatus.ABORTED) {
        // The error and cause say which state failed and why; without them a failed run is mute.
        throw new IllegalStateException(
            "replay execution "
                + arn
                + " ended "
                + status
                + ": "
                + described.error()
                + " "
                + described.cause());
      }
      // A driver's poll of the run's audit row; the figure is the run's own duration.
      Thread.sleep(20);
    }
  }

  /**
   * The most history events any execution of the replay machine started since {@code since} has
   * (the run and its continuations), once each has closed.
   */
  private static long longestHistory(SfnClient sfn, String machineArn, Instant since)
      throws InterruptedException {
    long longest = 0;
    for (var e : sfn.listExecutionsPaginator(b -> b.stateMachineArn(machineArn)).executions()) {
      if (e.startDate().isBefore(since)) {
        continue;
      }
      while (sfn.describeExecution(b -> b.executionArn(e.executionArn())).status()
          == ExecutionStatus.RUNNING) {
        // The audit row says SUCCEEDED from the last page; the Done state follows it.
        Thread.sleep(20);
      }
      long events = 0;
      for (var page :
          sfn.getExecutionHistoryPaginator(
              b -> b.executionArn(e.executionArn()).maxResults(1000))) {
        events += page.events().size();
      }
      longest = Math.max(longest, events);
    }
    return longest;
  }
}
