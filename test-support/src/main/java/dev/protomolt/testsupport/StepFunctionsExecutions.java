package dev.protomolt.testsupport;

import java.time.Duration;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Waits for a Step Functions execution to close, on the local runtime or any other endpoint the
 * client points at. Only modules that already depend on the Step Functions SDK may call it: this
 * module takes the SDK at provided scope so it never adds it to anyone's classpath.
 */
public final class StepFunctionsExecutions {

  private StepFunctionsExecutions() {}

  /** The execution once it is no longer running, within {@link Eventually#PATIENCE}. */
  public static DescribeExecutionResponse awaitClosed(SfnClient sfn, String executionArn) {
    return awaitClosed(sfn, executionArn, Eventually.PATIENCE);
  }

  /** The execution once it is no longer running, within {@code patience}. */
  public static DescribeExecutionResponse awaitClosed(
      SfnClient sfn, String executionArn, Duration patience) {
    return Eventually.valueWhen(
        "execution " + executionArn + " to close",
        patience,
        () -> sfn.describeExecution(b -> b.executionArn(executionArn)),
        d -> d.status() != ExecutionStatus.RUNNING);
  }
}
