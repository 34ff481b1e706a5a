package dev.protomolt.engine.replay;

import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What an operator asks the replay state machine for (decision 1700): the selectors (the account
 * among them), the graph and its version or, empty, the version the {@code active} alias names,
 * an optional interior {@code targetNode}, whether to only count ({@code dryRun}), and the pacing:
 * {@code pageSize} candidates per page and at most {@code ratePerSecond} executions started per
 * second (0: as fast as Step Functions accepts them). Blank {@code replayId} and {@code
 * requestedBy} are derived when the replay is validated.
 */
public record ReplayInput(
    String replayId,
    String requestedBy,
    StreamDocumentsForReplayRequest selectors,
    String graphId,
    OptionalLong version,
    String targetNode,
    boolean dryRun,
    int ratePerSecond,
    int pageSize) {

  /** Candidates per page when the input does not say. */
  public static final int DEFAULT_PAGE_SIZE = 200;

  public ReplayInput {
    replayId = Objects.requireNonNullElse(replayId, "");
    requestedBy = Objects.requireNonNullElse(requestedBy, "");
    selectors =
        Objects.requireNonNullElse(selectors, StreamDocumentsForReplayRequest.getDefaultInstance());
    graphId = Objects.requireNonNullElse(graphId, "");
    version = Objects.requireNonNullElse(version, OptionalLong.empty());
    targetNode = Objects.requireNonNullElse(targetNode, "");
  }
}
