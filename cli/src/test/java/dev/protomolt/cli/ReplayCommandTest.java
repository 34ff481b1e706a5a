package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.testsupport.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt replay} against a running platform: files ingested before any graph read their
 * datasource are replayed onto the demo graph (the sample modules run them, stopped at first so
 * the progress shows the replayed documents waiting for a module), a second run converges, and
 * refusals name the flag.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class ReplayCommandTest {

  static final String ACCOUNT = "archive";
  static final String DATASOURCE = "stored";
  static final String GRAPH = "replayed";

  /** The processing line while both replayed documents wait at their first module. */
  static final Pattern BOTH_QUEUED =
      Pattern.compile("processing \\[-+\\] 0/2 +0%.* · 2 queued \\(waiting for a module\\)");

  static SharedPlatform shared;
  static LocalPlatform platform;
  static String data;

  @BeforeAll
  static void provision(SharedPlatform platformToShare) {
    shared = platformToShare;
    platform = shared.platform();
    data = shared.data().toString();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
  }

  @TempDir Path files;

  @Test
  void storedDocumentsAreReplayedOntoTheGraphAndASecondRunConverges() throws Exception {
    Path corpus = Files.createDirectories(files.resolve("corpus"));
    Files.writeString(
        corpus.resolve("tides.txt"), "Tide tables list the high and low water times.");
    Files.writeString(corpus.resolve("keepers.txt"), "Lighthouse keepers kept the lamps burning.");
    // No graph reads the datasource yet: intake stores the copies and admits them nowhere.
    CommandRun ingest =
        CommandRun.of(
            "ingest",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            corpus.toString(),
            "--recursive",
            "--account",
            ACCOUNT,
            "--datasource",
            DATASOURCE,
            "--data",
            data);
    assertThat(ingest.status()).as("%s", ingest).isZero();

    CommandRun noGraph =
        CommandRun.of(
            "replay",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--wait",
            "--account",
            ACCOUNT,
            "--graph",
            GRAPH,
            "--datasource",
            DATASOURCE,
            "--data",
            data);
    assertThat(noGraph.status()).as("%s", noGraph).isEqualTo(CommandFailure.REFUSED);
    assertThat(noGraph.err())
        .contains("--graph: graph '" + GRAPH + "' has no deployed version")
        .contains("nothing was started");

    long version =
        platform.applyAndActivate(
            DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(GRAPH)
                .setName(GRAPH)
                .build());
    Instant before = Instant.now().minusSeconds(1);
    CommandRun.Running running;
    // With the modules stopped the replayed documents wait at the parser, and --wait says so
    // beside the processed count until they start again.
    try (SharedPlatform.WorkersStopped _ = shared.stopSampleWorkers()) {
      running =
          CommandRun.start(
              "replay",
              "--gateway",
              "127.0.0.1:" + platform.gatewayPort(),
              "--gateway-ca",
              platform.gatewayCa().toString(),
              "--wait",
              "--account",
              ACCOUNT,
              "--graph",
              GRAPH,
              "--datasource",
              DATASOURCE,
              "--data",
              data);
      Eventually.until(
          "the replay's progress to show both documents waiting for a module",
          () -> BOTH_QUEUED.matcher(running.outSoFar()).find());
    }
    CommandRun replay = running.await();
    assertThat(replay.status()).as("%s", replay).isZero();
    assertThat(replay.out())
        .contains("replaying [##############################] 2/2 100%")
        .contains("of graph '" + GRAPH + "' version " + version)
        .contains("candidates 2, started 2, already started 0, skipped 0")
        .containsPattern(BOTH_QUEUED)
        .contains("processing [##############################] 2/2 100%")
        .contains("replayed documents' dispositions: {SINK_REACHED=2}");

    // The sample modules run both replayed documents on that version to the sink.
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(shared.settings()))) {
      String versionArn =
          "arn:aws:states:us-east-1:000000000000:stateMachine:protomolt-local-"
              + GRAPH
              + ":"
              + version;
      assertThat(replay.out()).contains(versionArn);
      List<ExecutionListItem> runs =
          Eventually.valueWhen(
              "both replayed executions closed",
              () ->
                  clients
                      .sfn()
                      .listExecutions(b -> b.stateMachineArn(versionArn))
                      .executions()
                      .stream()
                      .filter(e -> e.startDate().isAfter(before))
                      .toList(),
              r ->
                  r.size() >= 2
                      && r.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING));
      assertThat(runs)
          .hasSize(2)
          .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    }

    CommandRun again =
        CommandRun.of(
            "replay",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--wait",
            "--account",
            ACCOUNT,
            "--graph",
            GRAPH,
            "--datasource",
            DATASOURCE,
            "--version",
            Long.toString(version),
            "--data",
            data);
    assertThat(again.status()).as("%s", again).isZero();
    assertThat(again.out()).contains("candidates 2, started 0, already started 2, skipped 0");

    CommandRun bare =
        CommandRun.of(
            "replay",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--wait",
            "--account",
            ACCOUNT,
            "--graph",
            GRAPH,
            "--data",
            data);
    assertThat(bare.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(bare.err()).contains("--account: a bare account_id selects a whole tenant");

    CommandRun badTime =
        CommandRun.of(
            "replay",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--wait",
            "--account",
            ACCOUNT,
            "--graph",
            GRAPH,
            "--modified-after",
            "yesterday",
            "--data",
            data);
    assertThat(badTime.status()).isEqualTo(2);
    assertThat(badTime.err()).contains("--modified-after: must be an ISO-8601 instant");

    CommandRun unknownVersion =
        CommandRun.of(
            "replay",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--wait",
            "--account",
            ACCOUNT,
            "--graph",
            GRAPH,
            "--doc",
            "x",
            "--version",
            "9",
            "--data",
            data);
    assertThat(unknownVersion.err())
        .as("%s", unknownVersion)
        .contains("--version: graph '" + GRAPH + "' has no version 9");
  }
}
