package dev.protomolt.localstack.template;

import dev.protomolt.localstack.iam.PolicyDocument;
import java.util.List;
import java.util.Map;

/**
 * One container of an {@code AWS::ECS::TaskDefinition} as the local cloud runs it: the task's
 * family, the container's name, its environment with every intrinsic resolved (plus the task's own
 * credentials and the local endpoints), and the task role.
 */
public record DeployedContainer(
    String logicalId,
    String family,
    String containerName,
    Map<String, String> environment,
    String taskRoleLogicalId,
    String taskRoleArn,
    FunctionCredentials credentials,
    List<PolicyDocument> policies) {

  public DeployedContainer {
    environment = Map.copyOf(environment);
    policies = List.copyOf(policies);
  }
}
