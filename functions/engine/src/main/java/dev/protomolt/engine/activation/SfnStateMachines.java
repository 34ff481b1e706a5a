package dev.protomolt.engine.activation;

import dev.protomolt.core.orchestration.StateMachines;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ListStateMachinesResponse;
import software.amazon.awssdk.services.sfn.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sfn.model.RoutingConfigurationListItem;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;
import software.amazon.awssdk.services.sfn.model.StateMachineType;

/**
 * {@link StateMachines} over the AWS SDK's {@link SfnClient}: the same code runs against AWS and
 * against the local Step Functions runtime, only the client's endpoint differs.
 */
public final class SfnStateMachines implements StateMachines {

  private final SfnClient sfn;
  private final String roleArn;

  /**
   * @param roleArn the execution role every graph's state machine runs as (it may invoke the
   *     engine Lambdas and start executions of the graph's own versions)
   */
  public SfnStateMachines(SfnClient sfn, String roleArn) {
    this.sfn = Objects.requireNonNull(sfn, "sfn");
    if (roleArn == null || !roleArn.startsWith("arn:")) {
      throw new IllegalArgumentException("roleArn must be an IAM role ARN, was '" + roleArn + "'");
    }
    this.roleArn = roleArn;
  }

  @Override
  public Optional<String> machineArn(String name) {
    String token = null;
    do {
      String page = token;
      ListStateMachinesResponse response =
          sfn.listStateMachines(b -> b.maxResults(1000).nextToken(page));
      for (StateMachineListItem item : response.stateMachines()) {
        if (item.name().equals(name)) {
          return Optional.of(item.stateMachineArn());
        }
      }
      token = response.nextToken();
    } while (token != null);
    return Optional.empty();
  }

  @Override
  public String create(String name, String definition) {
    return sfn.createStateMachine(
            b ->
                b.name(name)
                    .definition(definition)
                    .roleArn(roleArn)
                    .type(StateMachineType.STANDARD))
        .stateMachineArn();
  }

  @Override
  public String updateAndPublish(String machineArn, String definition, String description) {
    String version =
        sfn.updateStateMachine(
                b ->
                    b.stateMachineArn(machineArn)
                        .definition(definition)
                        .publish(true)
                        .versionDescription(description))
            .stateMachineVersionArn();
    if (version == null || version.isEmpty()) {
      throw new IllegalStateException(
          "UpdateStateMachine with publish=true on "
              + machineArn
              + " returned no stateMachineVersionArn");
    }
    return version;
  }

  @Override
  public void pointAlias(String machineArn, String aliasName, String versionArn) {
    RoutingConfigurationListItem all =
        RoutingConfigurationListItem.builder()
            .stateMachineVersionArn(versionArn)
            .weight(100)
            .build();
    if (aliasTarget(machineArn, aliasName).isPresent()) {
      sfn.updateStateMachineAlias(
          b -> b.stateMachineAliasArn(aliasArn(machineArn, aliasName)).routingConfiguration(all));
    } else {
      sfn.createStateMachineAlias(b -> b.name(aliasName).routingConfiguration(all));
    }
  }

  @Override
  public Optional<String> aliasTarget(String machineArn, String aliasName) {
    try {
      var routes =
          sfn.describeStateMachineAlias(
                  b -> b.stateMachineAliasArn(aliasArn(machineArn, aliasName)))
              .routingConfiguration();
      // Activation only ever routes 100 % to one version; a split alias is someone else's doing.
      if (routes.size() != 1) {
        throw new IllegalStateException(
            "alias "
                + aliasArn(machineArn, aliasName)
                + " routes to "
                + routes.size()
                + " versions; the engine expects exactly one");
      }
      return Optional.of(routes.getFirst().stateMachineVersionArn());
    } catch (ResourceNotFoundException missing) {
      return Optional.empty();
    }
  }

  @Override
  public StartOutcome start(String arn, String executionName, String input) {
    try {
      return new StartOutcome.Started(
          sfn.startExecution(b -> b.stateMachineArn(arn).name(executionName).input(input))
              .executionArn());
    } catch (ExecutionAlreadyExistsException exists) {
      return new StartOutcome.AlreadyExists(
          executionName,
          exists.awsErrorDetails() == null
              ? String.valueOf(exists.getMessage())
              : exists.awsErrorDetails().errorMessage());
    }
  }

  static String aliasArn(String machineArn, String aliasName) {
    return machineArn + ":" + aliasName;
  }
}
