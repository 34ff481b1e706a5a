package dev.protomolt.gateway;

import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
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
    call(() -> sfn.sendTaskSuccess(r -> r.taskToken(taskToken).output(outputJson)));
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
