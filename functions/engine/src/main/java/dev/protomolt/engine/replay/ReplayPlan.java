package dev.protomolt.engine.replay;

/**
 * A validated replay: its resolved id and requester, the run it is audited under ({@code runArn},
 * the first execution's ARN, shared by its continuations), the graph version it runs on and how
 * many candidates the selectors matched when it was validated (the progress total).
 */
public record ReplayPlan(
    String replayId,
    String requestedBy,
    String runArn,
    String graphId,
    long graphVersion,
    String versionArn,
    String targetNode,
    long candidatesTotal) {}
