package dev.protomolt.engine.replay;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Timestamps;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.statemachines.ReplayMachine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One page of a replay run (decision 1700): reads at most {@code page_size} candidates after the
 * cursor the state carries (one short query, no cursor held), starts each replayable one with its
 * deterministic name at the input's rate (Step Functions' {@code ExecutionAlreadyExists} counts as
 * already started, so a rerun converges), records the page and the run's totals (decision 1702)
 * and tells the state machine whether to read another page, continue as a new execution or stop.
 *
 * <p>A page stops starting once it has run for {@link #PAGE_BUDGET} (decision 1526): its cursor is
 * then the one after the last candidate it decided, and the next page reads on from there. Without
 * it a page's length was {@code page_size} times StartExecution's latency, and on a loaded machine
 * 200 starts outlived the function's 60 s timeout and failed the run.
 */
public final class ReplayPages {

  /**
   * How long one page may keep starting executions: half the stack's 60 s function timeout, the
   * other half left for the slowest start in flight and the audit write.
   */
  public static final Duration PAGE_BUDGET = Duration.ofSeconds(ReplayValidation.MAX_PAGE_SECONDS);

  /** Waits between paced starts; {@code Thread::sleep} in production. */
  @FunctionalInterface
  public interface Pause {
    void sleep(Duration duration) throws InterruptedException;
  }

  private final ReplayQuery query;
  private final ReplayAudit audit;
  private final GraphStore graphs;
  private final StateMachines machines;
  private final SourceRefetch refetch;
  private final InstantSource clock;
  private final Pause pause;
  private final Duration budget;

  public ReplayPages(
      ReplayQuery query,
      ReplayAudit audit,
      GraphStore graphs,
      StateMachines machines,
      SourceRefetch refetch,
      InstantSource clock,
      Pause pause) {
    this(query, audit, graphs, machines, refetch, clock, pause, PAGE_BUDGET);
  }

  /** @param budget how long a page may keep starting executions; positive */
  public ReplayPages(
      ReplayQuery query,
      ReplayAudit audit,
      GraphStore graphs,
      StateMachines machines,
      SourceRefetch refetch,
      InstantSource clock,
      Pause pause,
      Duration budget) {
    if (budget == null || !budget.isPositive()) {
      throw new IllegalArgumentException("budget: must be a positive duration, was " + budget);
    }
    this.budget = budget;
    this.query = Objects.requireNonNull(query, "query");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.refetch = Objects.requireNonNull(refetch, "refetch");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.pause = Objects.requireNonNull(pause, "pause");
  }

  /**
   * Runs the page after {@code progress} and returns the progress after it.
   *
   * @param executionArn the execution running the page (a continuation's differs from the run's)
   */
  public ReplayProgress next(
      ReplayInput input, ReplayPlan plan, ReplayProgress progress, String executionArn)
      throws InterruptedException {
    StoredGraph target =
        graphs
            .get(plan.graphId(), plan.graphVersion())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "graph '"
                            + plan.graphId()
                            + "' version "
                            + plan.graphVersion()
                            + " was validated for this replay but is gone"));
    StreamDocumentsForReplayRequest selectors =
        selectedBefore(ReplayValidation.selectors(input, target), plan.selectedBefore());
    ReplayQuery.Cursor after = ReplayQuery.Cursor.parse("progress.cursor", progress.cursor());
    ReplayQuery.Page page = query.page(selectors, after, input.pageSize());
    Map<String, Long> pageCounts = new LinkedHashMap<>();
    List<String> unreplayed = new ArrayList<>(progress.unreplayed());
    Instant paced = clock.instant();
    Instant stopAt = paced.plus(budget);
    Duration gap =
        input.ratePerSecond() == 0
            ? Duration.ZERO
            : Duration.ofNanos(1_000_000_000L / input.ratePerSecond());
    int decided = 0;
    for (ReplayCandidate candidate : page.candidates()) {
      // At least one candidate per page, so a run always moves however slow its starts are.
      if (decided > 0 && !clock.instant().isBefore(stopAt)) {
        break;
      }
      if (!gap.isZero()) {
        Duration wait = Duration.between(clock.instant(), paced);
        if (wait.isPositive()) {
          pause.sleep(wait);
        }
        paced = paced.plus(gap);
      }
      String verdict =
          ReplayStarts.start(
              machines,
              refetch,
              clock,
              target,
              plan.replayId(),
              candidate,
              plan.targetNode(),
              input.dryRun());
      pageCounts.merge(verdict, 1L, Long::sum);
      if ((verdict.equals(SourceRefetch.MISSING) || verdict.equals(SourceRefetch.CHANGED))
          && unreplayed.size() < ReplayProgress.NAMED_UNREPLAYED) {
        unreplayed.add(candidate.getDocumentRef().getDocId() + ": " + verdict);
      }
      decided++;
    }
    boolean whole = decided == page.candidates().size();
    ReplayQuery.Cursor reached = whole ? page.next() : page.cursors().get(decided - 1);
    boolean last = whole && page.last();
    Map<String, Long> totals = new LinkedHashMap<>(progress.counts());
    pageCounts.forEach((k, v) -> totals.merge(k, v, Long::sum));
    long pageNumber = progress.pages() + 1;
    long candidates = progress.candidates() + decided;
    int inExecution = progress.pagesInExecution() + 1;
    String next;
    String continuation = "";
    if (last) {
      next = ReplayProgress.DONE;
    } else if (inExecution >= ReplayMachine.PAGES_PER_EXECUTION) {
      next = ReplayProgress.CONTINUE;
      continuation =
          StateMachineNames.hashOf(
              "replay-continue", plan.runArn(), Integer.toString(progress.generation() + 1));
    } else {
      next = ReplayProgress.PAGE;
    }
    audit.page(
        new ReplayAudit.PageRow(
            plan.runArn(),
            pageNumber,
            executionArn,
            progress.cursor(),
            reached.text(),
            decided,
            pageCounts,
            clock.instant()),
        candidates,
        totals,
        last);
    return new ReplayProgress(
        reached.text(),
        pageNumber,
        candidates,
        totals,
        inExecution,
        progress.generation(),
        next,
        continuation,
        unreplayed);
  }

  /**
   * Bounds the pages to the states changed before the run was validated, unless the input's own
   * bound is earlier: a state saved during the run, such as a re-fetched source's intake copy, is
   * not a candidate of this run a second time.
   */
  private static StreamDocumentsForReplayRequest selectedBefore(
      StreamDocumentsForReplayRequest selectors, Instant bound) {
    if (bound == null) {
      return selectors;
    }
    Timestamp at =
        Timestamp.newBuilder().setSeconds(bound.getEpochSecond()).setNanos(bound.getNano()).build();
    boolean earlier =
        selectors.hasModifiedBefore() && Timestamps.compare(selectors.getModifiedBefore(), at) <= 0;
    boolean empty =
        selectors.hasModifiedAfter() && Timestamps.compare(selectors.getModifiedAfter(), at) >= 0;
    return earlier || empty ? selectors : selectors.toBuilder().setModifiedBefore(at).build();
  }
}
