package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.module.samples.chunker.ChunkerModule;
import dev.protomolt.module.samples.parser.ParserModule;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt redrive} on a running platform: a document's execution is stopped while its
 * chunker is down (the operator's abort of a stuck hop), the chunker is brought back, and the
 * redrive continues the execution from the chunk hop: the parser is not called again, and the
 * document reaches the sink. It starts a platform of its own because it stops the sample workers,
 * on ports of its own, and gives the shared platform's ports back when it ends.
 */
class RedriveCommandTest {

  static final String ACCOUNT = "redrive";
  static final String DATASOURCE = "redrive-docs";
  static final Duration PATIENCE = Duration.ofSeconds(120);

  @TempDir static Path data;
  static LocalPlatform platform;

  /** The ports the shared platform published, if it runs in this JVM: restored afterwards. */
  static final Map<String, String> SHARED_PORTS = new java.util.HashMap<>();

  @BeforeAll
  static void startPlatform() {
    for (String setting : LocalPorts.SETTINGS) {
      String value = System.getProperty(setting);
      if (value != null) {
        SHARED_PORTS.put(setting, value);
      }
    }
    LocalPorts.claim();
    platform = LocalPlatform.start(LocalCloudSettings.fromSystemProperties().withDataDir(data), 0);
    platform.provisionAccount(ACCOUNT, DATASOURCE);
  }

  @AfterAll
  static void stopPlatform() {
    if (platform != null) {
      platform.close();
    }
    LocalPorts.release();
    SHARED_PORTS.forEach(System::setProperty);
  }

  @Test
  void anAbortedDocumentIsRedrivenFromItsStuckHopToTheSink() {
    long version =
        platform.applyAndActivate(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER));
    platform.stopSampleWorkers();
    try (CountingWorkers workers = new CountingWorkers(platform)) {
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
              "--data",
              data.toString(),
              "--graph",
              DemoGraph.GRAPH_ID,
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
  void refusalsNameTheFlag() {
    CommandRun unknown =
        CommandRun.of(
            "redrive",
            "--gateway",
            "127.0.0.1:" + platform.gatewayPort(),
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
            "--data",
            data.toString(),
            "--graph",
            DemoGraph.GRAPH_ID,
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
            "--data",
            data.toString(),
            "--graph",
            DemoGraph.GRAPH_ID,
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

  /** The sample modules on the test's own workers, started one module at a time, counting calls. */
  private static final class CountingWorkers implements AutoCloseable {

    private final LocalPlatform platform;
    private final Map<String, DocumentProcessor> processors;
    private final ManagedChannel channel;
    private final List<ModuleWorker> workers = new ArrayList<>();
    private final Map<String, Map<String, AtomicInteger>> calls = new ConcurrentHashMap<>();

    CountingWorkers(LocalPlatform platform) {
      this.platform = platform;
      this.processors = platform.sampleProcessors();
      this.channel =
          NettyChannelBuilder.forAddress("127.0.0.1", platform.gatewayPort())
              .usePlaintext()
              .build();
    }

    void start(String module) {
      Map<String, AtomicInteger> perDoc =
          calls.computeIfAbsent(module, k -> new ConcurrentHashMap<>());
      DocumentProcessor inner = processors.get(module);
      DocumentProcessor counting =
          work -> {
            perDoc
                .computeIfAbsent(docId(work.stream()), k -> new AtomicInteger())
                .incrementAndGet();
            return inner.process(work);
          };
      ModuleWorker worker =
          new ModuleWorker(
              // Each worker signs as its module's principal, as the gateway requires (1741).
              ClientInterceptors.intercept(
                  channel, platform.moduleCredentials(module).interceptor()),
              WorkerConfig.of(module, 1),
              counting,
              WorkerClock.system());
      worker.start();
      workers.add(worker);
    }

    int calls(String module, String docId) {
      AtomicInteger n = calls.getOrDefault(module, Map.of()).get(docId);
      return n == null ? 0 : n.get();
    }

    private static String docId(PipeStream stream) {
      return stream.hasDocumentRef()
          ? stream.getDocumentRef().getDocId()
          : stream.getDocument().getDocId();
    }

    @Override
    public void close() {
      workers.forEach(ModuleWorker::close);
      channel.shutdownNow();
    }
  }
}
