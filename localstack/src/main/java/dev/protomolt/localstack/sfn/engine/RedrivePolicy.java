package dev.protomolt.localstack.sfn.engine;

import dev.protomolt.localstack.sfn.store.ExecutionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Which executions RedriveExecution accepts, as AWS lists the conditions: a Standard execution
 * (the only kind this runtime has) that FAILED, was ABORTED or TIMED_OUT, stopped no more than 14
 * days ago, was redriven fewer than 1,000 times and whose history has room for the redrive's
 * events. DescribeExecution reports the same verdict as {@code redriveStatus}.
 */
public final class RedrivePolicy {

  /** How long after its stop an execution can still be redriven. */
  public static final Duration WINDOW = Duration.ofDays(14);

  /** AWS stops accepting redrives of one execution after this many. */
  public static final int MAX_REDRIVES = 1000;

  /** A redrive needs history room: AWS refuses once the history reached 24,999 events. */
  static final long MAX_HISTORY_EVENTS = 24_999;

  private static final Set<String> REDRIVABLE = Set.of("FAILED", "ABORTED", "TIMED_OUT");

  private RedrivePolicy() {}

  /** Why {@code execution} cannot be redriven at {@code now}, or null when it can. */
  public static String refusal(
      ExecutionStore.Execution execution, long historyEvents, Instant now) {
    if (!REDRIVABLE.contains(execution.status())) {
      return statusRefusal(execution.status());
    }
    if (execution.stoppedAt() != null && now.isAfter(execution.stoppedAt().plus(WINDOW))) {
      return "Execution stopped at "
          + execution.stoppedAt()
          + ", more than 14 days ago, and can no longer be redriven";
    }
    if (execution.redriveCount() >= MAX_REDRIVES) {
      return "Execution has been redriven " + execution.redriveCount() + " times, the maximum";
    }
    if (historyEvents >= MAX_HISTORY_EVENTS) {
      return "Execution history has " + historyEvents + " events, the maximum a redrive allows";
    }
    if (execution.currentState() == null) {
      return "Execution stopped before it entered its first state; start a new execution instead";
    }
    return null;
  }

  /** The refusal for an execution whose status is not one a redrive accepts. */
  static String statusRefusal(String status) {
    return "Execution is " + status + " and cannot be redriven";
  }
}
