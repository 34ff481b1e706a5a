package dev.protomolt.core.orchestration;

/**
 * Completes a waiting task by its token, as the gateway does for a module's ack: the dispatch
 * function uses it to close a memoized hop's {@code N.Work} without any module (decision 1812),
 * the dlq function to end or release {@code N.DeadLettered} (decision 1525).
 */
public interface TaskTokenCompletion {

  /**
   * SendTaskSuccess with {@code outputJson} (for {@code N.Work}, the state contract's {@code {
   * workUnitId, outcome, stream }}); a failure to reach Step Functions is thrown.
   */
  void succeed(String taskToken, String outputJson);

  /** SendTaskFailure with {@code error} and {@code cause}; a failure to reach it is thrown. */
  void fail(String taskToken, String error, String cause);
}
