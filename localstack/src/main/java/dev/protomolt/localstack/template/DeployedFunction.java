package dev.protomolt.localstack.template;

import dev.protomolt.localstack.iam.PolicyDocument;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One {@code AWS::Lambda::Function} as the local cloud runs it: its name and ARN, the in-process
 * handler, its environment with every intrinsic resolved (plus what the Lambda runtime itself sets:
 * region, function name, its own credentials, the local endpoints), its role, timeout, memory and
 * reserved concurrency; the template's own {@code Handler}, {@code Runtime}, {@code Description} and
 * resolved variables (what the Lambda API reports); and the role's policies (what the IAM checks
 * evaluate its calls against).
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
    FunctionCredentials credentials,
    String handlerProperty,
    String runtime,
    String description,
    Map<String, String> templateEnvironment,
    List<PolicyDocument> policies) {

  public DeployedFunction {
    environment = Map.copyOf(environment);
    templateEnvironment = Map.copyOf(templateEnvironment);
    policies = List.copyOf(policies);
  }
}
