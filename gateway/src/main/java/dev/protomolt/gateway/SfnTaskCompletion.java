package dev.protomolt.gateway;

import dev.protomolt.names.PlatformMetric;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
import software.amazon.awssdk.services.sfn.model.SfnException;
import software.amazon.awssdk.services.sfn.model.TaskDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.TaskTimedOutException;

/** {@link TaskCompletion} over the Step Functions API. */
public final class SfnTaskCompletion implements TaskCompletion {

  /** SendTaskFailure's Cause is capped at 32 768 characters. */
  private static final int MAX_CAUSE = 32_768;

  private final SfnClient sfn;

  public SfnTaskCompletion(SfnClient sfn) {
    this.sfn = Objects.requireNonNull(sfn, "sfn");
  }

  @Override
  public void succeed(String taskToken, String outputJson) {
    try {
      call(() -> sfn.sendTaskSuccess(r -> r.taskToken(taskToken).output(outputJson)));
    } catch (SfnException e) {
      // A validation refusal of the output is its size: it would meet every retry the same way,
      // so it must not read as a transient failure that re-buffers the unit (decision 1656).
      if (e.awsErrorDetails() != null
          && "ValidationException".equals(e.awsErrorDetails().errorCode())
          && String.valueOf(e.awsErrorDetails().errorMessage()).contains("'output'")) {
        throw new TaskOutputTooLargeException(
            "Step Functions refused the task output: " + e.awsErrorDetails().errorMessage(),
            TaskOutputs.utf8Bytes(outputJson),
            PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES);
      }
      throw e;
    }
  }

  @Override
  public void fail(String taskToken, String error, String causeJson) {
    String cause = causeJson.length() > MAX_CAUSE ? causeJson.substring(0, MAX_CAUSE) : causeJson;
    call(() -> sfn.sendTaskFailure(r -> r.taskToken(taskToken).error(error).cause(cause)));
  }

  @Override
  public void heartbeat(String taskToken) {
    call(() -> sfn.sendTaskHeartbeat(r -> r.taskToken(taskToken)));
  }

  private static void call(Runnable r) {
    try {
      r.run();
    } catch (TaskTimedOutException | InvalidTokenException | TaskDoesNotExistException e) {
      throw new TaskTokenGoneException(e.getMessage(), e);
    }
  }
}
