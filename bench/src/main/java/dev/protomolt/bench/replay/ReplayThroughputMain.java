package dev.protomolt.bench.replay;

import dev.protomolt.cli.DemoGraph;
import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.replay.ReplayReport;
import dev.protomolt.engine.replay.ReplayRequest;
import dev.protomolt.engine.replay.ReplayService;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Candidates per second and executions started per second of a replay, through the replay state
 * machine (a Validate step, then keyset pages, each a Lambda invocation on the local Step
 * Functions runtime) next to the old in-process {@link ReplayService} (one cursor, one loop), over
 * the same stored documents onto the same graph version in the same run. Each path replays under
 * its own replay id, so each starts every execution itself; a dry run of the state machine gives
 * its paging rate without starts. The sample workers are stopped, so the started executions wait
 * at their first module instead of competing with the replay for the machine.
 *
 * <p>{@code -Dbench.replay.candidates=N} sets the number of stored documents (default 500).
 */
public final class ReplayThroughputMain {

  private static final String ACCOUNT = "bench-replay";
  private static final String DATASOURCE = "stored";

  private ReplayThroughputMain() {}

  public static void main(String[] args) throws Exception {
    int candidates = Integer.getInteger("bench.replay.candidates", 500);
    int pageSize = Integer.getInteger("bench.replay.pageSize", 200);
    Path data = Files.createTempDirectory("protomolt-bench-replay");
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      platform.stopSampleWorkers();
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      long seeded = System.nanoTime();
      for (int i = 0; i < candidates; i++) {
        platform
            .store()
            .save(
                Saves.intake(
                        ACCOUNT,
                        DATASOURCE,
                        SampleDocs.document(String.format("doc-%06d", i), i, 512, "a"))
                    .build());
      }
      System.out.printf(
          Locale.ROOT,
          "stored %d intake copies in %.1f s%n",
          candidates,
          (System.nanoTime() - seeded) / 1e9);
      long version =
          platform.applyAndActivate(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER));

      // Baseline: the in-process service, one streaming cursor, every start in one loop.
      ReplayService inProcess =
          new ReplayService(
              new ReplayQuery(database(platform))::stream,
              new PostgresGraphStore(database(platform)),
              new SfnStateMachines(
                  platform.stepFunctions(), "arn:aws:iam::000000000000:role/bench"),
              Clock.systemUTC());
      long t0 = System.nanoTime();
      ReplayReport old =
          inProcess.replay(
              new ReplayRequest(
                  "bench-in-process",
                  StreamDocumentsForReplayRequest.newBuilder()
                      .setAccountId(ACCOUNT)
                      .setDatasourceId(DATASOURCE)
                      .build(),
                  DemoGraph.GRAPH_ID,
                  OptionalLong.of(version)));
      double oldSeconds = (System.nanoTime() - t0) / 1e9;

      Run dry = machine(platform, "bench-dry", version, pageSize, true);
      Run paged = machine(platform, "bench-machine", version, pageSize, false);

      System.out.printf(
          Locale.ROOT,
          "in-process ReplayService (baseline): %d candidates, %d started in %.1f s: %.1f"
              + " candidates/s, %.1f started/s%n",
          old.candidates(),
          old.started(),
          oldSeconds,
          old.candidates() / oldSeconds,
          old.started() / oldSeconds);
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
          "ratio started/s state machine / in-process: %.2fx; load average %.1f%n",
          (paged.started / paged.seconds) / (old.started() / oldSeconds),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private record Run(long candidates, long started, double seconds) {}

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
            run.get().candidates(), run.get().counts().getOrDefault("started", 0L), seconds);
      }
      ExecutionStatus status =
          platform.stepFunctions().describeExecution(b -> b.executionArn(arn)).status();
      if (status == ExecutionStatus.FAILED || status == ExecutionStatus.ABORTED) {
        throw new IllegalStateException("replay execution " + arn + " ended " + status);
      }
      // A driver's poll of the run's audit row; the figure is the run's own duration.
      Thread.sleep(20);
    }
  }
}
