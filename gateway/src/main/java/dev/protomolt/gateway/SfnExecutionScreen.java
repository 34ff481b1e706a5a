package dev.protomolt.gateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Drains a dispatch whose execution is no longer RUNNING (aborted, failed, timed out, succeeded):
 * no module result could complete its token. A succeeded (or unknown) execution never runs again,
 * so that answer is cached; a failed, aborted or timed-out one can be redriven under the same ARN
 * (decision 1720), so it is asked again each time, and a running one after a short while.
 */
public final class SfnExecutionScreen implements WorkScreen {

  private final SfnClient sfn;
  private final Cache<String, String> ended = Caffeine.newBuilder().maximumSize(100_000).build();
  private final Cache<String, Boolean> running;

  public SfnExecutionScreen(SfnClient sfn, Duration runningTtl) {
    this.sfn = Objects.requireNonNull(sfn, "sfn");
    this.running = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(runningTtl).build();
  }

  @Override
  public ScreenVerdict screen(WorkDispatch dispatch) {
    String arn = dispatch.getExecutionArn();
    if (arn.isEmpty() || running.getIfPresent(arn) != null) {
      return ScreenVerdict.SERVE;
    }
    String status = ended.getIfPresent(arn);
    if (status == null) {
      try {
        ExecutionStatus s = sfn.describeExecution(r -> r.executionArn(arn)).status();
        if (s == ExecutionStatus.RUNNING || s == ExecutionStatus.PENDING_REDRIVE) {
          running.put(arn, Boolean.TRUE);
          return ScreenVerdict.SERVE;
        }
        status = String.valueOf(s);
        if (s == ExecutionStatus.SUCCEEDED) {
          ended.put(arn, status);
        }
      } catch (ExecutionDoesNotExistException e) {
        status = "DOES_NOT_EXIST";
        ended.put(arn, status);
      }
    }
    return new ScreenVerdict.Drain(
        "execution-ended",
        "execution "
            + arn
            + " is "
            + status
            + "; work unit "
            + dispatch.getWorkUnitId()
            + " has nothing waiting for it");
  }
}
