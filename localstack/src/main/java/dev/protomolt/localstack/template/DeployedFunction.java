package dev.protomolt.localstack.template;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One {@code AWS::Lambda::Function} as the local cloud runs it: its name and ARN, the in-process
 * handler, its environment with every intrinsic resolved (plus what the Lambda runtime itself sets:
 * region, function name, its own credentials, the local endpoints), its role, timeout, memory and
 * reserved concurrency.
 */
public record DeployedFunction(
    String logicalId,
    String functionName,
    String arn,
    String handler,
    Map<String, String> environment,
    String roleLogicalId,
    String roleArn,
    Duration timeout,
    int memoryMb,
    OptionalInt reservedConcurrency,
    FunctionCredentials credentials) {

  public DeployedFunction {
    environment = Map.copyOf(environment);
  }
}
