package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.module.samples.chunker.ChunkerModule;
import dev.protomolt.module.samples.embedder.EmbedderModule;
import dev.protomolt.module.samples.parser.ParserModule;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.testsupport.Eventually;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt redrive} on a running platform: a document's execution is stopped while its
 * chunker is down (the operator's abort of a stuck hop), the chunker is brought back, and the
 * redrive continues the execution from the chunk hop: the parser is not called again, and the
 * document reaches the sink; and a chunk hop that dead-lettered while the chunker was broken is
 * redriven once it is fixed, the parse hop before it not run again. It runs on the {@link
 * SharedPlatform} with the sample workers stopped
 * while it plays the modules on {@link CountingWorkers}.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class RedriveCommandTest {

  static final String ACCOUNT = "redrive";
  static final String DATASOURCE = "redrive-docs";
  static final Duration PATIENCE = Duration.ofSeconds(120);

  /** Its own graph id: graph ids and their state machines are global on the shared platform. */
  static final String GRAPH = "redrive-demo";

  static SharedPlatform shared;
  static LocalPlatform platform;
  static Path data;

  @BeforeAll
  static void provision(SharedPlatform platformToShare) {
    shared = platformToShare;
    platform = shared.platform();
    data = shared.data();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
  }

  @Test
  void anAbortedDocumentIsRedrivenFromItsStuckHopToTheSink() {
    long version =
        platform.applyAndActivate(
            DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(GRAPH)
                .build());
    try (SharedPlatform.WorkersStopped _ = shared.stopSampleWorkers();
        CountingWorkers workers = new CountingWorkers(platform)) {
      // The chunker is down: only the parser serves.
      workers.start(ParserModule.MODULE_ID);
      String docId =
          IntakeUploads.uploadOne(
              platform,
              ACCOUNT,
              DATASOURCE,
              "stuck.txt",
              "A document whose chunk hop got stuck.\n\nIt is redriven.\n");
      String execution =
          Eventually.valueWhen(
              "the document's execution",
              PATIENCE,
              () ->
                  platform.admissions(ACCOUNT).stream()
                      .filter(a -> a.docId().equals(docId) && !a.executionArn().isEmpty())
                      .map(LocalPlatform.Admission::executionArn)
                      .findFirst()
                      .orElse(null),
              arn -> arn != null);
      // Parsed, then queued at the chunker that nothing serves: the second submitted module task.
      Eventually.until(
          "the chunk hop to be queued",
          PATIENCE,
          () ->
              workers.calls(ParserModule.MODULE_ID, docId) == 1 && submittedTasks(execution) >= 2);

      platform
          .stepFunctions()
          .stopExecution(b -> b.executionArn(execution).error("Operator.Stuck"));
      assertThat(describe(execution).status()).isEqualTo(ExecutionStatus.ABORTED);

      // The fix: the chunker and the rest of the pipeline serve again.
      workers.start(ChunkerModule.MODULE_ID);
      for (String module : LocalPlatform.MODULES) {
        if (!module.equals(ParserModule.MODULE_ID) && !module.equals(ChunkerModule.MODULE_ID)) {
          workers.start(module);
        }
      }
      CommandRun run =
          CommandRun.of(
              "redrive",
              "--gateway",
              "127.0.0.1:" + platform.gatewayPort(),
              "--gateway-ca",
              platform.gatewayCa().toString(),
              "--data",
              data.toString(),
              "--graph",
              GRAPH,
              "--version",
              Long.toString(version));
      assertThat(run.status()).as(run.toString()).isZero();
      assertThat(run.out()).contains("redrove " + execution).contains("redriven 1, skipped 0");

      DescribeExecutionResponse done =
          Eventually.valueWhen(
              "the redriven execution to end",
              PATIENCE,
              () -> describe(execution),
              d -> d.status() != ExecutionStatus.RUNNING);
      assertThat(done.status())
          .as("%s %s", done.error(), done.cause())
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(done.output()).contains("SINK_REACHED");
      assertThat(done.redriveCount()).isEqualTo(1);
      assertThat(workers.calls(ParserModule.MODULE_ID, docId))
          .as("parser calls: the hop that succeeded before the abort is not run again")
          .isEqualTo(1);
      for (String module : LocalPlatform.MODULES) {
        if (!module.equals(ParserModule.MODULE_ID)) {
          assertThat(workers.calls(module, docId)).as("calls of %s", module).isEqualTo(1);
        }
      }

      // Succeeded now: a second redrive of the same window skips it, saying why.
      CommandRun again =
          CommandRun.of(
              "redrive",
              "--gateway",
              "127.0.0.1:" + platform.gatewayPort(),
              "--gateway-ca",
              platform.gatewayCa().toString(),
              "--data",
              data.toString(),
              "--execution",
              execution);
      assertThat(again.status()).as(again.toString()).isZero();
      assertThat(again.out())
          .contains("skipped " + execution + ": Execution is SUCCEEDED and cannot be redriven")
          .contains("redriven 0, skipped 1");
    }
  }

  @Test
  void aDeadLetteredModuleHopIsRedrivenOnceTheModuleIsFixedAndTheHopsBeforeItAreNotRunAgain() {
    // Its own account, datasource and graph: an upload of the first test's datasource would also
    // start on this graph, and each test counts its modules' calls.
    String account = "redrive-dlq";
    String datasource = "redrive-dlq-docs";
    String graph = "redrive-dlq-demo";
    platform.provisionAccount(account, datasource);
    platform.applyAndActivate(
        DemoGraph.of(account, datasource, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId(graph)
            .build());
    AtomicBoolean chunkerBroken = new AtomicBoolean(true);
    try (SharedPlatform.WorkersStopped _ = shared.stopSampleWorkers();
        CountingWorkers workers = new CountingWorkers(platform)) {
      workers.start(ParserModule.MODULE_ID);
      workers.startFailingWhile(ChunkerModule.MODULE_ID, chunkerBroken::get);
      for (String module : LocalPlatform.MODULES) {
        if (!module.equals(ParserModule.MODULE_ID) && !module.equals(ChunkerModule.MODULE_ID)) {
          workers.start(module);
        }
      }
      String docId =
          IntakeUploads.uploadOne(
              platform,
              account,
              datasource,
              "broken-chunker.txt",
              "A document the chunker fails on.\n\nIt is redriven once the chunker is fixed.\n");
      String execution =
          Eventually.valueWhen(
              "the document's execution",
              PATIENCE,
              () ->
                  platform.admissions(account).stream()
                      .filter(a -> a.docId().equals(docId) && !a.executionArn().isEmpty())
                      .map(LocalPlatform.Admission::executionArn)
                      .findFirst()
                      .orElse(null),
              arn -> arn != null);

      // The chunker throws on every attempt: the hop retries, dead-letters, and the execution
      // ends FAILED in the dead-letter state.
      DescribeExecutionResponse deadLettered =
          Eventually.valueWhen(
              "the chunk hop to dead-letter",
              PATIENCE,
              () -> describe(execution),
              d -> d.status() != ExecutionStatus.RUNNING);
      assertThat(deadLettered.status()).isEqualTo(ExecutionStatus.FAILED);
      assertThat(deadLettered.error()).isEqualTo(RedriveCommand.DEAD_LETTERED);
      int failedChunks = workers.calls(ChunkerModule.MODULE_ID, docId);
      assertThat(failedChunks).as("the chunker was called and retried").isGreaterThan(1);
      assertThat(workers.calls(EmbedderModule.MODULE_ID, docId)).isZero();

      chunkerBroken.set(false);
      CommandRun run =
          CommandRun.of(
              "redrive",
              "--gateway",
              "127.0.0.1:" + platform.gatewayPort(),
              "--gateway-ca",
              platform.gatewayCa().toString(),
              "--data",
              data.toString(),
              "--execution",
              execution);
      assertThat(run.status()).as(run.toString()).isZero();
      assertThat(run.out()).contains("redrove " + execution).contains("redriven 1, skipped 0");

      DescribeExecutionResponse done =
          Eventually.valueWhen(
              "the redriven execution to end",
              PATIENCE,
              () -> describe(execution),
              d -> d.status() != ExecutionStatus.RUNNING);
      assertThat(done.status())
          .as("%s %s", done.error(), done.cause())
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(done.output()).contains("SINK_REACHED");
      assertThat(done.redriveCount()).isEqualTo(1);
      assertThat(workers.calls(ParserModule.MODULE_ID, docId))
          .as("the parse hop succeeded before the dead letter and is not run again")
          .isEqualTo(1);
      assertThat(workers.calls(ChunkerModule.MODULE_ID, docId))
          .as("the redrive dispatched the failed chunk hop once more")
          .isEqualTo(failedChunks + 1);
      assertThat(workers.calls(EmbedderModule.MODULE_ID, docId)).isEqualTo(1);
      assertThat(workers.calls(IndexSinkModule.MODULE_ID, docId)).isEqualTo(1);
    }
  }

  @Test
  void refusalsNameTheFlag() {
    CommandRun unknown =
        CommandRun.of(
            "redrive",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--data",
            data.toString(),
            "--graph",
            "no-such-graph",
            "--version",
            "1");
    assertThat(unknown.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(unknown.err()).contains("--graph/--version: graph 'no-such-graph' has no version 1");

    CommandRun window =
        CommandRun.of(
            "redrive",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--data",
            data.toString(),
            "--graph",
            GRAPH,
            "--version",
            "1",
            "--since",
            "2026-03-02T00:00:00Z",
            "--until",
            "2026-03-01T00:00:00Z");
    assertThat(window.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(window.err()).contains("--since: must be before --until");

    CommandRun badInstant =
        CommandRun.of(
            "redrive",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
            "--gateway-ca",
            platform.gatewayCa().toString(),
            "--data",
            data.toString(),
            "--graph",
            GRAPH,
            "--version",
            "1",
            "--since",
            "yesterday");
    assertThat(badInstant.status()).isNotZero();
    assertThat(badInstant.err()).contains("--since: must be an ISO-8601 instant");
  }

  private static DescribeExecutionResponse describe(String execution) {
    return platform.stepFunctions().describeExecution(b -> b.executionArn(execution));
  }

  private static long submittedTasks(String execution) {
    return platform
        .stepFunctions()
        .getExecutionHistoryPaginator(b -> b.executionArn(execution))
        .events()
        .stream()
        .filter(e -> e.typeAsString().equals("TaskSubmitted"))
        .count();
  }
}
