package dev.protomolt.engine.replay;

import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What to replay and where: the selectors of {@code StreamDocumentsForReplay} (account and at
 * least one narrowing selector, decision 0903), the target graph, and optionally the version to
 * run; without one the version the graph's {@code active} alias names when the replay starts.
 * {@code replayId} names the replay in every execution name, so running the same replay again
 * converges on the executions it already started; blank derives it from the request itself.
 */
public record ReplayRequest(
    String replayId,
    StreamDocumentsForReplayRequest selectors,
    String graphId,
    OptionalLong version) {

  public ReplayRequest {
    replayId = replayId == null ? "" : replayId;
    graphId = graphId == null ? "" : graphId;
    selectors =
        Objects.requireNonNullElse(selectors, StreamDocumentsForReplayRequest.getDefaultInstance());
    version = Objects.requireNonNullElse(version, OptionalLong.empty());
  }
}
