package dev.protomolt.engine.replay;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counts of a replay, so far or at its end: executions started, candidates whose execution
 * this replay had already started (a rerun converging), and candidates skipped, by verdict.
 * Skips are keyed by the candidate's {@code ReplayEligibility} name, or {@link #NOT_READ} when
 * the target version has no node reading the candidate's datasource.
 */
public record ReplayReport(
    String replayId,
    String graphId,
    long graphVersion,
    String versionArn,
    long candidates,
    long started,
    long alreadyStarted,
    Map<String, Long> skipped) {

  /** The skip key of a candidate whose datasource the target version does not read. */
  public static final String NOT_READ = "DATASOURCE_NOT_READ";

  public ReplayReport {
    skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
  }

  /** Every skipped candidate, whatever the verdict. */
  public long skippedTotal() {
    return skipped.values().stream().mapToLong(Long::longValue).sum();
  }
}
