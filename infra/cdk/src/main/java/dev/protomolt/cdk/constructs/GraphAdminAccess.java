package dev.protomolt.cdk.constructs;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.IFunction;
import software.constructs.Construct;

/**
 * Graph state machines do not exist in the template: the graph admin function creates one per
 * graph, publishes a version per graph version and moves the {@code active} alias at activation
 * time. This construct makes that possible and no more:
 * <ul>
 *   <li>one execution role every graph state machine runs as (invoke the hop functions, start
 *       child executions of this environment's state machines for fan-out);
 *   <li>for graph admin, exactly the Step Functions actions that lifecycle needs, on state
 *       machines named {@code <prefix>-*} (and their versions and aliases, which share that ARN
 *       prefix), plus {@code iam:PassRole} for that one role, only to Step Functions.
 * </ul>
 */
public final class GraphAdminAccess extends Construct {

  /** What graph admin may do to state machines, versions and aliases of its environment. */
  public static final List<String> STATE_MACHINE_ACTIONS =
      List.of(
          "states:CreateStateMachine",
          "states:UpdateStateMachine",
          "states:DescribeStateMachine",
          "states:DeleteStateMachine",
          // Deleting a version is refused while executions run on it.
          "states:ListExecutions",
          "states:ValidateStateMachineDefinition",
          "states:PublishStateMachineVersion",
          "states:ListStateMachineVersions",
          "states:DeleteStateMachineVersion",
          "states:CreateStateMachineAlias",
          "states:UpdateStateMachineAlias",
          "states:DescribeStateMachineAlias",
          "states:ListStateMachineAliases",
          "states:DeleteStateMachineAlias",
          "states:TagResource",
          "states:ListTagsForResource");

  /** Validated settings. {@code prefix} is the environment prefix, e.g. {@code protomolt-dev}. */
  public record Props(String prefix, IGrantable graphAdmin, List<IFunction> hopFunctions) {
    public Props {
      if (prefix == null || !prefix.matches("[a-zA-Z0-9-]{3,60}")) {
        throw new IllegalArgumentException(
            "graph admin: state machine name prefix must be 3-60"
                + " letters, digits or dashes (got "
                + prefix
                + ")");
      }
      if (graphAdmin == null) {
        throw new IllegalArgumentException("graph admin: the graph admin principal is required");
      }
      if (hopFunctions == null || hopFunctions.isEmpty()) {
        throw new IllegalArgumentException(
            "graph admin: the hop functions the state machines" + " invoke are required");
      }
      hopFunctions = List.copyOf(hopFunctions);
    }
  }

  private final Props props;
  private final Role executionRole;

  public GraphAdminAccess(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    this.executionRole =
        Role.Builder.create(this, "ExecutionRole")
            .assumedBy(new ServicePrincipal("states.amazonaws.com"))
            .description("Runs every graph state machine of " + props.prefix())
            .build();
    for (IFunction hop : props.hopFunctions()) {
      hop.grantInvoke(executionRole);
    }
    // Fan-out starts child executions on the same pinned version ARN (ARCHITECTURE §2).
    executionRole.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("states:StartExecution"))
            .resources(List.of(stateMachinePattern()))
            .build());

    grantLifecycle(props.graphAdmin());
  }

  /**
   * What activation needs, for graph admin and for every other door that activates (the gateway's
   * {@code PipelineGraphService}): the lifecycle actions on this environment's state machines and
   * passing the one execution role to Step Functions.
   */
  public void grantLifecycle(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(STATE_MACHINE_ACTIONS)
                .resources(List.of(stateMachinePattern()))
                .build());
    // Activation finds a graph's machine by name (SfnStateMachines.machineArn); ListStateMachines
    // accepts no resource in IAM, so it is granted on "*" and names nothing but machine names.
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:ListStateMachines"))
                .resources(List.of("*"))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("iam:PassRole"))
                .resources(List.of(executionRole.getRoleArn()))
                .conditions(
                    Map.of("StringEquals", Map.of("iam:PassedToService", "states.amazonaws.com")))
                .build());
  }

  /** Read executions and their histories (the console's run viewer). */
  public void grantExecutionReads(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution", "states:GetExecutionHistory"))
                .resources(List.of(executionPattern()))
                .build());
  }

  /**
   * {@code arn:<partition>:states:<region>:<account>:stateMachine:<prefix>-*}: the state machines
   * of this environment; a version ({@code ...:<name>:<n>}) and an alias ({@code ...:<name>:active})
   * extend that ARN, so the one pattern covers all three and nothing of another environment.
   */
  public String stateMachinePattern() {
    return stateMachineArnPrefix() + "*";
  }

  /** {@code arn:...:stateMachine:<prefix>-}: what every ARN of this environment starts with. */
  public String stateMachineArnPrefix() {
    Stack stack = Stack.of(this);
    return "arn:"
        + stack.getPartition()
        + ":states:"
        + stack.getRegion()
        + ":"
        + stack.getAccount()
        + ":stateMachine:"
        + props.prefix()
        + "-";
  }

  /** {@code ...:execution:<prefix>-*:*}: executions of this environment's state machines. */
  public String executionPattern() {
    Stack stack = Stack.of(this);
    return "arn:"
        + stack.getPartition()
        + ":states:"
        + stack.getRegion()
        + ":"
        + stack.getAccount()
        + ":execution:"
        + props.prefix()
        + "-*:*";
  }

  public Role executionRole() {
    return executionRole;
  }

  /** Start executions (intake admission, replay) on this environment's state machines. */
  public void grantStartExecution(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:StartExecution", "states:DescribeStateMachineAlias"))
                .resources(List.of(stateMachinePattern()))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution"))
                .resources(List.of(executionPattern()))
                .build());
  }

  /**
   * Complete a waiting task with success only: the dispatch function closes a memoized hop's Work
   * state itself (decision 1812). {@code *} for the same reason as {@link #grantTaskResponse}.
   */
  public void grantTaskSuccess(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:SendTaskSuccess"))
                .resources(List.of("*"))
                .build());
  }

  /**
   * Succeed or fail a waiting task, nothing else: the dlq function answers its own {@code
   * N.DeadLettered} token, failing it with the dead letter or releasing it after a redrive
   * (decision 1525). {@code *} for the same reason as {@link #grantTaskResponse}.
   */
  public void grantTaskAnswer(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:SendTaskSuccess", "states:SendTaskFailure"))
                .resources(List.of("*"))
                .build());
  }

  /**
   * Complete waiting tasks (the gateway answering module results), and read the executions whose
   * tokens it holds (it probes a token's execution before serving it, decision 1651). The {@code
   * SendTask*} actions have no resource type in IAM: only {@code *} matches them, so a statement
   * naming state machines grants nothing (the local cloud's policy checks refused every heartbeat
   * until this said {@code *}). The token itself is the capability.
   */
  public void grantTaskResponse(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(
                    List.of(
                        "states:SendTaskSuccess",
                        "states:SendTaskFailure",
                        "states:SendTaskHeartbeat"))
                .resources(List.of("*"))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:DescribeExecution"))
                .resources(List.of(executionPattern()))
                .build());
  }
}
