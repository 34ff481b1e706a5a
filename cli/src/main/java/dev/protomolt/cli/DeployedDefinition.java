package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.sfn.model.SfnException;

/**
 * The definition a published state machine version holds, read with {@code DescribeStateMachine}
 * from the local Step Functions endpoint {@code protomolt env} prints, as {@code aws stepfunctions
 * describe-state-machine} would read it (decision 0981).
 */
final class DeployedDefinition {

  private DeployedDefinition() {}

  static String read(LocalCloudSettings settings, String versionArn) {
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(settings))) {
      try {
        return clients.sfn().describeStateMachine(b -> b.stateMachineArn(versionArn)).definition();
      } catch (SdkClientException e) {
        throw new CommandFailure(
            CommandFailure.UNREACHABLE,
            "no local Step Functions at "
                + clients.sfnEndpoint()
                + " ("
                + e.getMessage()
                + ") — start it with `protomolt up"
                + " --data "
                + settings.dataDir()
                + "`");
      } catch (SfnException e) {
        throw CommandFailure.refused(
            "state machine version "
                + versionArn
                + " recorded for the"
                + " graph version cannot be described: "
                + e.getMessage());
      }
    }
  }
}
