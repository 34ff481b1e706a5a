package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.TaskTokenCompletion;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;

/** {@link TaskTokenCompletion} over the Step Functions API ({@code states:SendTaskSuccess}). */
public final class SfnTaskTokenCompletion implements TaskTokenCompletion {

  private final SfnClient sfn;

  public SfnTaskTokenCompletion(SfnClient sfn) {
    this.sfn = Objects.requireNonNull(sfn, "sfn");
  }

  @Override
  public void succeed(String taskToken, String outputJson) {
    sfn.sendTaskSuccess(r -> r.taskToken(taskToken).output(outputJson));
  }
}
