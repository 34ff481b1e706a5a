package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.proto.config.v1.GraphSettings;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Work waits safely in a backlog: with every module stopped, documents are ingested and left
 * queued for three heartbeat intervals and more, then the modules start. Every document must reach
 * its sink with no timed-out task anywhere in any execution's history, no dead letter, and each
 * module called exactly once per document.
 *
 * <p>The graph's heartbeat interval is set to {@link #HEARTBEAT_SECONDS} so the wait proves in
 * seconds what the wait of three 30 s intervals plus a minute proves: before decision 1650
 * the compiled Work state carried that interval as its HeartbeatSeconds, and every queued record
 * timed out after one of them. The wait itself is the premise of the test (time must pass while
 * nothing heartbeats the queue), so it is a bound on the runtime's own clock, not a sleep standing
 * in for a signal.
 *
 * <p>It runs on the {@link SharedPlatform} with the sample workers stopped for its duration (its
 * own counting workers play the modules), and counts only its own documents' calls and the
 * gateway's duplicate acks since it began. {@code -Pscale} runs it with 2,000 documents.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class BacklogWaitTest {

  static final int DOCUMENTS = Integer.getInteger("backlog.documents", 60);

  /**
   * Short enough that the wait stays in seconds, long enough that the gateway's watchdog (one
   * interval, decision 0852) does not close a working module's stream on a loaded machine: a 2 s
   * interval did, once, on a 2-core machine running other builds, and the redelivery was a second
   * module call.
   */
  static final int HEARTBEAT_SECONDS = 5;

  /** Three heartbeat intervals plus one more for the "plus a minute", scaled like them. */
  static final Duration QUEUED_WAIT = Duration.ofSeconds(4L * HEARTBEAT_SECONDS);

  static final String ACCOUNT = "backlog";
  static final String DATASOURCE = "backlog-docs";

  /** Real components need real time; a bound for failing, never a measurement. */
  static final Duration PATIENCE = Duration.ofSeconds(Math.max(150, DOCUMENTS / 2));

  /**
   * How long the queueing or the drain may go without one more document moving before it is
   * called stuck: on a loaded machine the whole run takes what it takes.
   */
  static final Duration STALL = Duration.ofSeconds(90);

  /** Its own graph id: graph ids and their state machines are global on the shared platform. */
  static final String GRAPH = "backlog-demo";

  @Test
  void aBacklogQueuedPastThreeHeartbeatsDrainsWithNoTimeoutAndOneCallPerModuleAndDocument(
      SharedPlatform shared) throws Exception {
    LocalPlatform platform = shared.platform();
    long duplicatesBefore = platform.gatewayCounters().duplicateAcks();
    try (SharedPlatform.WorkersStopped _ = shared.stopSampleWorkers()) {
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      PipelineGraph demo = DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER);
      long version =
          platform.applyAndActivate(
              demo.toBuilder()
                  .setGraphId(GRAPH)
                  .setSettings(
                      GraphSettings.newBuilder().setDefaultHeartbeatSeconds(HEARTBEAT_SECONDS))
                  .build());

      Set<String> docIds = upload(platform);

      // Every document is queued at its first module before the clock starts: each execution has
      // submitted its parse task (the dispatch is on the topic) and nothing serves it.
      Map<String, String> executions = awaitQueued(platform, version, docIds);
      // What `ingest --wait` counts as queued beside its progress (decision 1657): all of them.
      ManagedChannel operator =
          platform.gatewayChannel().intercept(platform.operatorCredentials().interceptor()).build();
      PlatformRuns runs = new PlatformRuns(operator);
      DispositionWatch watch =
          new DispositionWatch(
              ids -> runs.admissions(ACCOUNT, ids, Instant.EPOCH), platform.stepFunctions());
      assertThat(watch.terminal(docIds)).isEmpty();
      assertThat(watch.queued())
          .as("documents waiting for a module while every module is stopped")
          .isEqualTo(docIds.size());
      Instant queuedAt = Instant.now();
      Eventually.until(
          "the backlog to have waited " + QUEUED_WAIT,
          PATIENCE,
          () -> Duration.between(queuedAt, Instant.now()).compareTo(QUEUED_WAIT) >= 0);
      assertThat(timeoutsIn(platform, executions.values()))
          .as("timed-out tasks while the modules were stopped")
          .isEmpty();

      CountingWorkers modules = new CountingWorkers(platform).startAll(2);
      try (modules) {
        Map<String, DescribeExecutionResponse> ended =
            awaitEveryExecution(platform, executions, docIds.size());
        ObjectMapper json = new ObjectMapper();
        for (Map.Entry<String, DescribeExecutionResponse> e : ended.entrySet()) {
          DescribeExecutionResponse d = e.getValue();
          assertThat(d.status())
              .as("document %s: %s %s", e.getKey(), d.error(), d.cause())
              .isEqualTo(ExecutionStatus.SUCCEEDED);
          assertThat(json.readTree(d.output()).path("disposition").asText())
              .as("document %s", e.getKey())
              .isEqualTo("SINK_REACHED");
        }
      }
      assertThat(timeoutsIn(platform, executions.values()))
          .as("TaskTimedOut or heartbeat-timeout events in any execution's history")
          .isEmpty();
      assertThat(watch.terminal(docIds)).hasSameSizeAs(docIds);
      assertThat(watch.queued()).as("documents still queued once all ended").isZero();
      operator.shutdownNow();
      for (String module : LocalPlatform.MODULES) {
        Map<String, Integer> calls = modules.callsOf(module);
        // Only this class's documents: a unit another class left behind may reach these workers.
        calls.keySet().retainAll(docIds);
        assertThat(calls.keySet()).as("documents module %s saw", module).isEqualTo(docIds);
        assertThat(calls.values())
            .as("calls of module %s per document", module)
            .allMatch(n -> n == 1);
      }
      assertThat(platform.gatewayCounters().duplicateAcks() - duplicatesBefore)
          .as("duplicate acks")
          .isZero();
    }
  }

  /** Uploads the documents to the intake bucket; returns the doc ids intake gives them. */
  private static Set<String> upload(LocalPlatform platform) {
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (int i = 0; i < DOCUMENTS; i++) {
      String text =
          "Backlog document " + i + ".\n\nIt waited in a queue while every module was stopped.\n";
      corpus.put("backlog-" + i + ".txt", text.getBytes(StandardCharsets.UTF_8));
    }
    return Set.copyOf(IntakeUploads.upload(platform, ACCOUNT, DATASOURCE, corpus).keySet());
  }

  /** Waits until every document's execution has submitted its first module task. */
  private static Map<String, String> awaitQueued(
      LocalPlatform platform, long version, Set<String> docIds) {
    Map<String, String> executions = new HashMap<>();
    Set<String> submitted = new java.util.HashSet<>();
    Eventually.whileProgressing(
        "every document to be queued at its first module",
        STALL,
        () -> {
          for (LocalPlatform.Admission a : platform.admissions(ACCOUNT)) {
            if (a.graphVersion() == version
                && docIds.contains(a.docId())
                && !a.executionArn().isEmpty()) {
              executions.putIfAbsent(a.docId(), a.executionArn());
            }
          }
          for (Map.Entry<String, String> e : executions.entrySet()) {
            if (!submitted.contains(e.getKey())
                && history(platform, e.getValue()).stream()
                    .anyMatch(h -> h.typeAsString().equals("TaskSubmitted"))) {
              submitted.add(e.getKey());
            }
          }
          return submitted.size();
        },
        n -> n,
        n -> n == docIds.size());
    return executions;
  }

  private static Map<String, DescribeExecutionResponse> awaitEveryExecution(
      LocalPlatform platform, Map<String, String> executions, int of) {
    Map<String, DescribeExecutionResponse> ended = new HashMap<>();
    Eventually.whileProgressing(
        "every document's execution to end",
        STALL,
        () -> {
          for (Map.Entry<String, String> e : executions.entrySet()) {
            if (ended.containsKey(e.getKey())) {
              continue;
            }
            DescribeExecutionResponse d =
                platform.stepFunctions().describeExecution(b -> b.executionArn(e.getValue()));
            if (d.status() != ExecutionStatus.RUNNING) {
              ended.put(e.getKey(), d);
            }
          }
          return ended.size();
        },
        n -> n,
        n -> n == of);
    return ended;
  }

  /** Every timed-out task in the executions' histories, as {@code execution: event}. */
  private static List<String> timeoutsIn(LocalPlatform platform, Iterable<String> executionArns) {
    List<String> timeouts = new ArrayList<>();
    for (String arn : executionArns) {
      for (HistoryEvent h : history(platform, arn)) {
        String type = h.typeAsString();
        String text = h.toString();
        if (type.endsWith("TimedOut") || text.contains("States.HeartbeatTimeout")) {
          timeouts.add(arn + ": " + type);
        }
      }
    }
    return timeouts;
  }

  private static List<HistoryEvent> history(LocalPlatform platform, String executionArn) {
    List<HistoryEvent> events = new ArrayList<>();
    platform
        .stepFunctions()
        .getExecutionHistoryPaginator(b -> b.executionArn(executionArn))
        .forEach(page -> events.addAll(page.events()));
    return events;
  }
}
