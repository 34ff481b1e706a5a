package dev.protomolt.gateway;

/**
 * Completes the waiting {@code N.Work} state of a hop by its task token. Every method throws
 * {@link TaskTokenGoneException} when the token was superseded or completed already; any other
 * exception is a transient failure to reach Step Functions, except {@link
 * TaskOutputTooLargeException} from {@link #succeed}: Step Functions refused the output itself.
 */
public interface TaskCompletion {

  /** SendTaskSuccess with the state contract's {@code { workUnitId, outcome, stream }} JSON. */
  void succeed(String taskToken, String outputJson);

  /** SendTaskFailure with a typed error name and its JSON cause. */
  void fail(String taskToken, String error, String causeJson);

  /** SendTaskHeartbeat: the module is still working. */
  void heartbeat(String taskToken);
}
