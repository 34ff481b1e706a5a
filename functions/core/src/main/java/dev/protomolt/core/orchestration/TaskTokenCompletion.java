package dev.protomolt.core.orchestration;

/**
 * Completes a waiting task by its token, as the gateway does for a module's ack: the dispatch
 * function uses it to close a memoized hop's {@code N.Work} without any module (decision 1812).
 */
public interface TaskTokenCompletion {

  /**
   * SendTaskSuccess with the state contract's {@code { workUnitId, outcome, stream }} JSON; a
   * failure to reach Step Functions is thrown.
   */
  void succeed(String taskToken, String outputJson);
}
