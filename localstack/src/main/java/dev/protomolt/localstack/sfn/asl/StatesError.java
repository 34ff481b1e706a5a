package dev.protomolt.localstack.sfn.asl;

/**
 * An error raised while running a state, named as Amazon States Language names errors. Retriers and
 * catchers match on {@link #error()}; {@link #cause()} is the human-readable detail.
 */
public final class StatesError extends RuntimeException {

  public static final String ALL = "States.ALL";
  public static final String TIMEOUT = "States.Timeout";
  public static final String HEARTBEAT_TIMEOUT = "States.HeartbeatTimeout";
  public static final String TASK_FAILED = "States.TaskFailed";
  public static final String RUNTIME = "States.Runtime";
  public static final String DATA_LIMIT_EXCEEDED = "States.DataLimitExceeded";
  public static final String NO_CHOICE_MATCHED = "States.NoChoiceMatched";
  public static final String RESULT_PATH_MATCH_FAILURE = "States.ResultPathMatchFailure";
  public static final String INTRINSIC_FAILURE = "States.IntrinsicFailure";

  private final String error;
  private final String errorCause;

  public StatesError(String error, String cause) {
    super(error + ": " + cause, null, false, false);
    this.error = error;
    this.errorCause = cause;
  }

  public static StatesError runtime(String cause) {
    return new StatesError(RUNTIME, cause);
  }

  public String error() {
    return error;
  }

  public String cause() {
    return errorCause;
  }

  /**
   * AWS documents States.Runtime and States.DataLimitExceeded as terminal: no retrier or catcher
   * ever handles them, not even States.ALL.
   */
  public boolean terminal() {
    return RUNTIME.equals(error) || DATA_LIMIT_EXCEEDED.equals(error);
  }
}
