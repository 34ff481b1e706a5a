package dev.protomolt.engine.replay;

import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.core.orchestration.StateMachines.StartOutcome;
import dev.protomolt.engine.admission.AdmissionService;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import java.time.InstantSource;

/**
 * Starts (or, dry, only judges) the execution of one replay candidate and says what became of it:
 * {@link #STARTED}, {@link #ALREADY_STARTED}, {@link #WOULD_START} or a skip verdict. The one place
 * the replay state machine's pages decide a candidate, with the names of decision 0990, so a rerun
 * converges.
 */
final class ReplayStarts {

  static final String STARTED = "started";
  static final String ALREADY_STARTED = "already_started";
  static final String WOULD_START = "would_start";

  /** No node of the target version reads the candidate's datasource. */
  static final String NOT_READ = "DATASOURCE_NOT_READ";

  /** A SOURCE_RECEIPT candidate whose intake object was fetched again and started. */
  static final String SOURCE_REFETCHED = "source_refetched";

  /** A dry run's SOURCE_RECEIPT candidate whose intake object is still there as it was. */
  static final String WOULD_REFETCH = "would_refetch";

  private ReplayStarts() {}

  /**
   * @param targetNode the interior node the execution enters at, or empty for the node reading
   *     the candidate's datasource (an intake copy)
   * @param refetch fetches a settled intake copy's source again; null where sources are never
   *     fetched (a SOURCE_RECEIPT candidate is then only counted)
   */
  static String start(
      StateMachines machines,
      SourceRefetch refetch,
      InstantSource clock,
      StoredGraph target,
      String replayId,
      ReplayCandidate candidate,
      String targetNode,
      boolean dryRun) {
    boolean refetched = false;
    if (candidate.getEligibility() == ReplayEligibility.REPLAY_ELIGIBILITY_SOURCE_RECEIPT
        && targetNode.isEmpty()
        && refetch != null) {
      // An intake copy settled after indexing: its source is fetched again from the intake
      // object the receipt names, if that object is still what it was (decision 1524). An
      // interior copy's source is its intake copy: that is the replay to run for it.
      switch (refetch.check(candidate)) {
        case SourceRefetch.Lost lost -> {
          return lost.verdict();
        }
        case SourceRefetch.Same same -> {
          if (dryRun) {
            return WOULD_REFETCH;
          }
          candidate =
              candidate.toBuilder()
                  .setDocumentRef(refetch.save(same))
                  .setEligibility(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE)
                  .build();
          refetched = true;
        }
      }
    }
    if (candidate.getEligibility() != ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE) {
      // BODY_MISSING cannot run; SOURCE_RECEIPT without a way to fetch the source is counted.
      return candidate.getEligibility().name().replace("REPLAY_ELIGIBILITY_", "");
    }
    String accountId = candidate.getDocumentRef().getAccountId();
    String datasourceId =
        candidate.getDatasourceId().isEmpty()
            ? candidate.getDocumentRef().getGraphAddressId()
            : candidate.getDatasourceId();
    String entry =
        targetNode.isEmpty() ? AdmissionService.intakeNodeOf(target, datasourceId) : targetNode;
    if (entry.isEmpty()) {
      return NOT_READ;
    }
    if (dryRun) {
      return WOULD_START;
    }
    Intake intake =
        IntakeService.intakeOf(accountId, datasourceId, candidate.getDocumentRef(), clock.instant())
            .replayedBy(replayId);
    long version = target.graph().getVersion();
    String name =
        targetNode.isEmpty()
            ? StateMachineNames.hashOf(
                "replay",
                replayId,
                accountId,
                datasourceId,
                intake.docId(),
                target.graph().getGraphId(),
                Long.toString(version))
            // An interior entry is a different execution of the same document: its node is named.
            : StateMachineNames.hashOf(
                "replay-at",
                targetNode,
                replayId,
                accountId,
                datasourceId,
                intake.docId(),
                target.graph().getGraphId(),
                Long.toString(version));
    return switch (machines.start(
        target.stateMachineVersionArn(),
        name,
        AdmissionService.executionInput(intake, target, entry))) {
      case StartOutcome.Started started -> refetched ? SOURCE_REFETCHED : STARTED;
      case StartOutcome.AlreadyExists exists -> ALREADY_STARTED;
    };
  }
}
