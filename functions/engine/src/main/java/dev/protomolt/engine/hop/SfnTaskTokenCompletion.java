package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.TaskTokenCompletion;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * {@link TaskTokenCompletion} over the Step Functions API ({@code states:SendTaskSuccess}, {@code
 * states:SendTaskFailure}).
 */
public final class SfnTaskTokenCompletion implements TaskTokenCompletion {

  private final SfnClient sfn;

  public SfnTaskTokenCompletion(SfnClient sfn) {
    this.sfn = Objects.requireNonNull(sfn, "sfn");
  }

  @Override
  public void succeed(String taskToken, String outputJson) {
    sfn.sendTaskSuccess(r -> r.taskToken(taskToken).output(outputJson));
  }

  @Override
  public void fail(String taskToken, String error, String cause) {
    sfn.sendTaskFailure(r -> r.taskToken(taskToken).error(error).cause(cause));
  }
}
