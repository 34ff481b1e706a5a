package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.statemachines.ErrorNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * A transient store failure in Prepare or Complete is thrown as {@link TransientHopFailure}; the
 * local Lambda runner reports its class name as the errorType, as AWS does, and the compiled
 * {@code Retry} on {@link ErrorNames#ENGINE_TRANSIENT} retries the hop instead of dead-lettering it.
 * The retry waits pass on the runtime's fake clock.
 */
class HopRetryTest {

  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aPrepareThatFailsTransientlyIsRetriedAndThenDispatches() throws Exception {
    // A filter makes parse's Prepare read the body (one without filter or pre-mappings reads
    // nothing) and keeps intake's Complete from preparing parse itself (decision 1832): parse's
    // own Prepare meets all three failures, its Retry allowing three.
    h.staging.failingHydrations.set(3);
    String execution = admit("doc-1", withPassingFilterOnParse());

    WorkDispatch parse = awaitDispatchAdvancingRetryWaits();
    assertThat(parse.getNodeId()).isEqualTo("parse");
    assertThat(h.staging.failingHydrations.get()).as("every injected failure was hit").isZero();
    assertThat(lambdaFailures(execution))
        .as("each attempt failed with the class name as the error")
        .containsExactly(
            ErrorNames.ENGINE_TRANSIENT, ErrorNames.ENGINE_TRANSIENT, ErrorNames.ENGINE_TRANSIENT);
    assertThat(h.events.produced)
        .as("nothing dead-lettered")
        .noneMatch(p -> p.topic().endsWith(".dlq"));
  }

  @Test
  void aCompleteThatFailsTransientlyIsRetriedAndRoutesOn() throws Exception {
    String execution = admit("doc-2");
    WorkDispatch parse = h.nextDispatch();
    h.staging.failingStages.set(1);
    h.succeed(parse, parse.getStream());

    WorkDispatch chunk = awaitDispatchAdvancingRetryWaits();
    assertThat(chunk.getNodeId()).isEqualTo("chunk");
    assertThat(lambdaFailures(execution)).containsExactly(ErrorNames.ENGINE_TRANSIENT);
    assertThat(h.staging.staged)
        .extracting(RecordingStaging.Staged::nodeId)
        .containsExactly("parse", "chunk");
  }

  @Test
  void aDirectCompleteThatFailsTransientlyIsRetriedWholeAndGoesStraightOn() throws Exception {
    // chunk's one unconditional edge into index needs no routing choice (decision 1834): its
    // Complete's own Retry meets the failure, and the retry settles and prepares index once.
    String execution = admit("doc-5");
    WorkDispatch parse = h.nextDispatch();
    h.succeed(parse, parse.getStream());
    WorkDispatch chunk = h.nextDispatch();
    h.staging.failingStages.set(1);
    h.succeed(chunk, chunk.getStream());

    WorkDispatch index = awaitDispatchAdvancingRetryWaits();
    assertThat(index.getNodeId()).isEqualTo("index");
    assertThat(h.staging.failingStages.get()).as("the injected failure was hit").isZero();
    assertThat(lambdaFailures(execution)).containsExactly(ErrorNames.ENGINE_TRANSIENT);
    assertThat(h.steps())
        .as("the retried Complete recorded chunk's step once")
        .extracting(StepExecutionRecord::getNodeId)
        .containsExactly("in", "parse", "chunk");
    assertThat(h.events.produced).noneMatch(p -> p.topic().endsWith(".dlq"));
  }

  @Test
  void anIntakeFirstHopFailingFiveTimesBacksOffFromTwoToThirtyTwoSecondsAndThenRuns()
      throws Exception {
    h.staging.failingStages.set(5);
    String execution = admit("doc-3");

    assertThat(retryWaits(5))
        .as("the first-hop backoff, read off the runtime's clock")
        .containsExactly(
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(32));
    WorkDispatch parse = h.nextDispatch();
    assertThat(parse.getNodeId()).isEqualTo("parse");
    assertThat(lambdaFailures(execution)).hasSize(5);
  }

  @Test
  void aSixthFirstHopFailureDeadLettersTheIntake() throws Exception {
    h.staging.failingStages.set(6);
    String execution = admit("doc-4");

    retryWaits(5);
    var done = h.awaitClosed(execution);
    assertThat(done.error()).isEqualTo(ErrorNames.DEAD_LETTERED);
    var dead = h.events.on(EventBus.dlqTopic("c1", "g1", "in"));
    assertThat(dead)
        .singleElement()
        .satisfies(
            p ->
                assertThat(DlqMessage.parseFrom(p.value()).getError().getCode())
                    .isEqualTo(ErrorNames.ENGINE_TRANSIENT));
  }

  /**
   * Waits for each retry timer the runtime schedules, records how far ahead of the runtime's clock
   * it is, and advances the clock exactly that far: the backoff, without any wall-clock timing.
   */
  private List<Duration> retryWaits(int retries) throws Exception {
    List<Duration> waits = new ArrayList<>();
    for (int retry = 0; retry < retries; retry++) {
      Duration wait = Duration.between(h.sfnClock.now(), awaitRetryDeadline());
      waits.add(wait);
      h.sfnClock.advance(wait);
    }
    return waits;
  }

  /**
   * The next retry's deadline. Intake's Complete waits on the next hop's task token (decision
   * 1843), so its state's own timeout, a day away, is pending too; a retry wait is under an hour.
   */
  private Instant awaitRetryDeadline() throws InterruptedException {
    long until = System.nanoTime() + HopHarness.PATIENCE.toNanos();
    while (System.nanoTime() < until) {
      Instant now = h.sfnClock.now();
      Optional<Instant> retry =
          h.sfnClock.pendingDeadlines().stream()
              .filter(d -> Duration.between(now, d).compareTo(Duration.ofHours(1)) < 0)
              .min(Comparator.naturalOrder());
      if (retry.isPresent()) {
        return retry.get();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no retry was scheduled within " + HopHarness.PATIENCE);
  }

  /** Advances the runtime's clock past each retry wait until the next dispatch appears. */
  private WorkDispatch awaitDispatchAdvancingRetryWaits() throws Exception {
    for (int step = 0; step < 40; step++) {
      RecordingEventBus.Produced record = h.events.dispatches.poll(50, TimeUnit.MILLISECONDS);
      if (record != null) {
        return WorkDispatch.parseFrom(record.value());
      }
      h.sfnClock.advance(Duration.ofSeconds(1));
    }
    throw new AssertionError("no dispatch after the retries");
  }

  private List<String> lambdaFailures(String execution) {
    return h.sfn.getExecutionHistory(b -> b.executionArn(execution)).events().stream()
        .filter(e -> e.type() == HistoryEventType.TASK_FAILED)
        .map(HistoryEvent::taskFailedEventDetails)
        .map(d -> d.error())
        .toList();
  }

  /** The linear graph with a filter on parse that every document passes. */
  private static PipelineGraph withPassingFilterOnParse() {
    PipelineGraph.Builder b = linear("g1", 0).toBuilder();
    for (GraphNode.Builder n : b.getNodesBuilderList()) {
      if (n.getNodeId().equals("parse")) {
        n.addFilterConditions(
            FilterCondition.newBuilder()
                .setCondition("document.search_metadata.language == 'en'")
                .setAction(FilterAction.FILTER_ACTION_DROP)
                .setDescription("English only"));
      }
    }
    return b.build();
  }

  private String admit(String docId) {
    return admit(docId, linear("g1", 0));
  }

  private String admit(String docId, PipelineGraph graph) {
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en"))
            .build();
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                "ds-1",
                docId,
                PipeStream.newBuilder().setStreamId("s-" + docId).setDocument(doc).build()));
    return admitted.getFirst().executionArn();
  }
}
