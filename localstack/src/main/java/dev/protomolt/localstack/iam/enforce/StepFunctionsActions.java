package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sfn.model.CreateStateMachineAliasRequest;
import software.amazon.awssdk.services.sfn.model.CreateStateMachineRequest;
import software.amazon.awssdk.services.sfn.model.DeleteStateMachineAliasRequest;
import software.amazon.awssdk.services.sfn.model.DeleteStateMachineRequest;
import software.amazon.awssdk.services.sfn.model.DeleteStateMachineVersionRequest;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionRequest;
import software.amazon.awssdk.services.sfn.model.DescribeStateMachineAliasRequest;
import software.amazon.awssdk.services.sfn.model.DescribeStateMachineForExecutionRequest;
import software.amazon.awssdk.services.sfn.model.DescribeStateMachineRequest;
import software.amazon.awssdk.services.sfn.model.GetExecutionHistoryRequest;
import software.amazon.awssdk.services.sfn.model.ListExecutionsRequest;
import software.amazon.awssdk.services.sfn.model.ListStateMachineAliasesRequest;
import software.amazon.awssdk.services.sfn.model.ListStateMachineVersionsRequest;
import software.amazon.awssdk.services.sfn.model.ListStateMachinesRequest;
import software.amazon.awssdk.services.sfn.model.PublishStateMachineVersionRequest;
import software.amazon.awssdk.services.sfn.model.RedriveExecutionRequest;
import software.amazon.awssdk.services.sfn.model.RoutingConfigurationListItem;
import software.amazon.awssdk.services.sfn.model.SendTaskFailureRequest;
import software.amazon.awssdk.services.sfn.model.SendTaskHeartbeatRequest;
import software.amazon.awssdk.services.sfn.model.SendTaskSuccessRequest;
import software.amazon.awssdk.services.sfn.model.SfnRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StartSyncExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StopExecutionRequest;
import software.amazon.awssdk.services.sfn.model.UpdateStateMachineAliasRequest;
import software.amazon.awssdk.services.sfn.model.UpdateStateMachineRequest;

/**
 * Step Functions operations as the actions and resources Step Functions authorizes: state machine,
 * version and alias operations on the ARN the request names (a version or alias ARN extends the
 * state machine's), execution operations on the execution ARN, the task token callbacks on {@code
 * *} (a token names no resource). Passing an execution role also checks {@code iam:PassRole} on
 * that role with {@code iam:PassedToService = states.amazonaws.com}, and publishing while creating
 * or updating checks {@code states:PublishStateMachineVersion}.
 */
final class StepFunctionsActions {

  private StepFunctionsActions() {}

  static List<AccessRequest> of(SfnRequest request, String region, String account) {
    return switch (request) {
      case CreateStateMachineRequest r -> {
        String arn = "arn:aws:states:" + region + ":" + account + ":stateMachine:" + r.name();
        List<AccessRequest> checks = new ArrayList<>();
        checks.add(AccessRequest.of("states:CreateStateMachine", arn));
        passRole(r.roleArn(), checks);
        if (Boolean.TRUE.equals(r.publish())) {
          checks.add(AccessRequest.of("states:PublishStateMachineVersion", arn));
        }
        yield checks;
      }
      case UpdateStateMachineRequest r -> {
        List<AccessRequest> checks = new ArrayList<>();
        checks.add(AccessRequest.of("states:UpdateStateMachine", r.stateMachineArn()));
        passRole(r.roleArn(), checks);
        if (Boolean.TRUE.equals(r.publish())) {
          checks.add(AccessRequest.of("states:PublishStateMachineVersion", r.stateMachineArn()));
        }
        yield checks;
      }
      case DescribeStateMachineRequest r -> on("states:DescribeStateMachine", r.stateMachineArn());
      case DeleteStateMachineRequest r -> on("states:DeleteStateMachine", r.stateMachineArn());
      case ListStateMachinesRequest _ -> on("states:ListStateMachines", "*");
      case PublishStateMachineVersionRequest r ->
          on("states:PublishStateMachineVersion", r.stateMachineArn());
      case ListStateMachineVersionsRequest r ->
          on("states:ListStateMachineVersions", r.stateMachineArn());
      case DeleteStateMachineVersionRequest r ->
          on("states:DeleteStateMachineVersion", r.stateMachineVersionArn());
      case CreateStateMachineAliasRequest r ->
          on("states:CreateStateMachineAlias", aliasArn(r.routingConfiguration(), r.name()));
      case UpdateStateMachineAliasRequest r ->
          on("states:UpdateStateMachineAlias", r.stateMachineAliasArn());
      case DescribeStateMachineAliasRequest r ->
          on("states:DescribeStateMachineAlias", r.stateMachineAliasArn());
      case DeleteStateMachineAliasRequest r ->
          on("states:DeleteStateMachineAlias", r.stateMachineAliasArn());
      case ListStateMachineAliasesRequest r ->
          on("states:ListStateMachineAliases", r.stateMachineArn());
      case StartExecutionRequest r -> on("states:StartExecution", r.stateMachineArn());
      case StartSyncExecutionRequest r -> on("states:StartSyncExecution", r.stateMachineArn());
      case DescribeExecutionRequest r -> on("states:DescribeExecution", r.executionArn());
      case StopExecutionRequest r -> on("states:StopExecution", r.executionArn());
      case GetExecutionHistoryRequest r -> on("states:GetExecutionHistory", r.executionArn());
      case RedriveExecutionRequest r -> on("states:RedriveExecution", r.executionArn());
      case DescribeStateMachineForExecutionRequest r ->
          on("states:DescribeStateMachineForExecution", r.executionArn());
      case ListExecutionsRequest r ->
          on(
              "states:ListExecutions",
              r.stateMachineArn() != null ? r.stateMachineArn() : r.mapRunArn());
      case SendTaskSuccessRequest _ -> on("states:SendTaskSuccess", "*");
      case SendTaskFailureRequest _ -> on("states:SendTaskFailure", "*");
      case SendTaskHeartbeatRequest _ -> on("states:SendTaskHeartbeat", "*");
      default ->
          throw new OperationNotMappedException(
              "Step Functions",
              request.getClass().getSimpleName(),
              StepFunctionsActions.class.getName());
    };
  }

  private static List<AccessRequest> on(String action, String resource) {
    return List.of(AccessRequest.of(action, resource == null ? "" : resource));
  }

  private static void passRole(String roleArn, List<AccessRequest> checks) {
    if (roleArn != null) {
      checks.add(
          new AccessRequest(
              "iam:PassRole", roleArn, Map.of("iam:PassedToService", "states.amazonaws.com")));
    }
  }

  /** An alias ARN is its state machine's ARN (the routed version's, unqualified) plus its name. */
  private static String aliasArn(List<RoutingConfigurationListItem> routing, String name) {
    if (routing == null || routing.isEmpty() || routing.get(0).stateMachineVersionArn() == null) {
      return "";
    }
    String version = routing.get(0).stateMachineVersionArn();
    String[] parts = version.split(":");
    String stateMachine =
        parts.length == 8 ? version.substring(0, version.lastIndexOf(':')) : version;
    return stateMachine + ":" + name;
  }
}
