package dev.protomolt.engine.replay;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.PipeDocStoreException;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Replay: re-runs stored documents through a graph version. The candidates are the intake copies
 * {@code StreamDocumentsForReplay} selects (decision 0903); each REPLAYABLE one starts an
 * execution on the target version's ARN with exactly the input admission gives a fresh intake
 * ({@code AdmissionService.executionInput}), named {@code hash("replay", replay id, account,
 * datasource, doc, graph, version)} so running the same replay again converges (decision 0990).
 * The target version is resolved once, before the first candidate, as admission resolves the
 * alias once per intake: a version activated mid-replay does not split it.
 */
public final class ReplayService {

  /** Where candidates come from: the repository's {@code ReplayQuery.stream} in production. */
  @FunctionalInterface
  public interface Candidates {
    void stream(StreamDocumentsForReplayRequest request, Consumer<ReplayCandidate> sink);
  }

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final Candidates candidates;
  private final GraphStore graphs;
  private final StateMachines machines;
  private final InstantSource clock;

  public ReplayService(
      Candidates candidates, GraphStore graphs, StateMachines machines, InstantSource clock) {
    this.candidates = Objects.requireNonNull(candidates, "candidates");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Runs the replay to its end and returns the counts. */
  public ReplayReport replay(ReplayRequest request) {
    return replay(request, report -> {});
  }

  /**
   * Runs the replay, calling {@code progress} with the counts so far after every candidate.
   *
   * @throws ReplayRefused naming the field and the rule, before anything is started
   */
  public ReplayReport replay(ReplayRequest request, Consumer<ReplayReport> progress) {
    Objects.requireNonNull(progress, "progress");
    StoredGraph target = target(request);
    long version = target.graph().getVersion();
    String versionArn = target.stateMachineVersionArn();
    String replayId =
        request.replayId().isBlank() ? derivedId(request, version) : request.replayId();
    Tally tally = new Tally(replayId, request.graphId(), version, versionArn);
    try {
      candidates.stream(
          request.selectors(),
          candidate -> {
            tally.candidates++;
            start(tally, target, candidate);
            progress.accept(tally.report());
          });
    } catch (PipeDocStoreException.InvalidRequest e) {
      throw new ReplayRefused(
          "selectors." + e.field(), e.getMessage().substring(e.field().length() + 2));
    }
    return tally.report();
  }

  private void start(Tally tally, StoredGraph target, ReplayCandidate candidate) {
    String verdict =
        ReplayStarts.start(machines, null, clock, target, tally.replayId, candidate, "", false);
    switch (verdict) {
      case ReplayStarts.STARTED -> tally.started++;
      case ReplayStarts.ALREADY_STARTED -> tally.alreadyStarted++;
      default -> tally.skip(verdict);
    }
  }

  /** The version to run: the one asked for, or the one the {@code active} alias names now. */
  private StoredGraph target(ReplayRequest request) {
    if (!request.selectors().getGraphId().isBlank()
        || !request.selectors().getGraphAddressId().isBlank()) {
      // This in-process path only replays intake copies; the replay state machine enters at an
      // interior node (decision 1700).
      throw new ReplayRefused(
          request.selectors().getGraphId().isBlank()
              ? "selectors.graph_address_id"
              : "selectors.graph_id",
          "replay starts from the intake copies; an interior node's copy cannot be replayed yet");
    }
    return ReplayTargets.resolve(graphs, machines, request.graphId(), request.version());
  }

  /** A replay without an id is named by what it asks, so the same command converges. */
  private static String derivedId(ReplayRequest request, long version) {
    try {
      return StateMachineNames.hashOf(
          JSON.print(request.selectors()), request.graphId(), Long.toString(version));
    } catch (InvalidProtocolBufferException e) {
      throw new ReplayRefused("selectors", "cannot be printed as JSON: " + e.getMessage());
    }
  }

  /** The running counts of one replay. */
  private static final class Tally {
    final String replayId;
    final String graphId;
    final long version;
    final String versionArn;
    long candidates;
    long started;
    long alreadyStarted;
    final Map<String, Long> skipped = new LinkedHashMap<>();

    Tally(String replayId, String graphId, long version, String versionArn) {
      this.replayId = replayId;
      this.graphId = graphId;
      this.version = version;
      this.versionArn = versionArn;
    }

    void skip(String key) {
      skipped.merge(key, 1L, Long::sum);
    }

    ReplayReport report() {
      return new ReplayReport(
          replayId, graphId, version, versionArn, candidates, started, alreadyStarted, skipped);
    }
  }
}
