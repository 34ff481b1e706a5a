package dev.protomolt.engine.replay;

/**
 * A validated replay: its resolved id and requester, the run it is audited under ({@code runArn},
 * the first execution's ARN, shared by its continuations), the graph version it runs on and how
 * many candidates the selectors matched when it was validated (the progress total). Pages only
 * read states last changed before {@code selectedBefore}, the validation's instant, so a state
 * stored during the run (a new upload, a source the run fetched again) is not read twice (decision
 * 1524); null for a run validated before the bound existed.
 */
public record ReplayPlan(
    String replayId,
    String requestedBy,
    String runArn,
    String graphId,
    long graphVersion,
    String versionArn,
    String targetNode,
    long candidatesTotal,
    java.time.Instant selectedBefore) {}
