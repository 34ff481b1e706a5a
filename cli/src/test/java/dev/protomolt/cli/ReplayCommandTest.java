package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt replay} against a running platform: files ingested before any graph read their
 * datasource are replayed onto the demo graph (the sample modules run them), a second run
 * converges, and refusals name the flag.
 */
class ReplayCommandTest {

  static final String ACCOUNT = "acme";

  @TempDir static Path data;
  static LocalPlatform platform;

  @BeforeAll
  static void startPlatform() {
    LocalPorts.claim();
    platform = LocalPlatform.start(LocalCloudSettings.fromSystemProperties().withDataDir(data), 0);
    platform.provisionAccount(ACCOUNT, "docs");
  }

  @AfterAll
  static void stopPlatform() {
    if (platform != null) {
      platform.close();
    }
    LocalPorts.release();
  }

  @Test
  void storedDocumentsAreReplayedOntoTheGraphAndASecondRunConverges() throws Exception {
    Path corpus = Files.createDirectories(data.resolve("corpus"));
    Files.writeString(
        corpus.resolve("tides.txt"), "Tide tables list the high and low water times.");
    Files.writeString(corpus.resolve("keepers.txt"), "Lighthouse keepers kept the lamps burning.");
    // No graph reads 'docs' yet: intake stores the copies and admits them nowhere.
    CommandRun ingest =
        CommandRun.of(
            "ingest",
            corpus.toString(),
            "--recursive",
            "--account",
            ACCOUNT,
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(ingest.status()).as("%s", ingest).isZero();

    CommandRun noGraph =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(noGraph.status()).as("%s", noGraph).isEqualTo(CommandFailure.REFUSED);
    assertThat(noGraph.err())
        .contains("--graph: graph '" + DemoGraph.GRAPH_ID + "' has no deployed version")
        .contains("nothing was started");

    long version = platform.applyAndActivate(DemoGraph.of(ACCOUNT, "docs", LocalPlatform.CLUSTER));
    Instant before = Instant.now().minusSeconds(1);
    CommandRun replay =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(replay.status()).as("%s", replay).isZero();
    assertThat(replay.out())
        .contains("replaying [##############################] 2/2 100%")
        .contains("of graph '" + DemoGraph.GRAPH_ID + "' version " + version)
        .contains("candidates 2, started 2, already started 0, skipped 0");

    // The sample modules run both replayed documents on that version to the sink.
    try (LocalClients clients =
        new LocalClients(
            LocalEnvironment.expected(
                LocalCloudSettings.fromSystemProperties().withDataDir(data)))) {
      String versionArn =
          "arn:aws:states:us-east-1:000000000000:stateMachine:protomolt-local-demo:" + version;
      assertThat(replay.out()).contains(versionArn);
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      List<ExecutionListItem> runs;
      do {
        Thread.sleep(200);
        runs =
            clients.sfn().listExecutions(b -> b.stateMachineArn(versionArn)).executions().stream()
                .filter(e -> e.startDate().isAfter(before))
                .toList();
      } while (runs.stream().anyMatch(e -> e.status() == ExecutionStatus.RUNNING)
          && System.nanoTime() < deadline);
      assertThat(runs)
          .hasSize(2)
          .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    }

    CommandRun again =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--datasource",
            "docs",
            "--version",
            Long.toString(version),
            "--data",
            data.toString());
    assertThat(again.status()).as("%s", again).isZero();
    assertThat(again.out()).contains("candidates 2, started 0, already started 2, skipped 0");

    CommandRun bare =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--data",
            data.toString());
    assertThat(bare.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(bare.err()).contains("--account: a bare account_id selects a whole tenant");

    CommandRun badTime =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--modified-after",
            "yesterday",
            "--data",
            data.toString());
    assertThat(badTime.status()).isEqualTo(2);
    assertThat(badTime.err()).contains("--modified-after: must be an ISO-8601 instant");

    CommandRun unknownVersion =
        CommandRun.of(
            "replay",
            "--account",
            ACCOUNT,
            "--graph",
            DemoGraph.GRAPH_ID,
            "--doc",
            "x",
            "--version",
            "9",
            "--data",
            data.toString());
    assertThat(unknownVersion.err())
        .as("%s", unknownVersion)
        .contains("--version: graph '" + DemoGraph.GRAPH_ID + "' has no version 9");
  }
}
