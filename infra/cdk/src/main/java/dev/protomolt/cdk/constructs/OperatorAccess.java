package dev.protomolt.cdk.constructs;

import java.util.List;
import software.amazon.awscdk.services.iam.AccountRootPrincipal;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.lambda.IFunction;
import software.constructs.Construct;

/**
 * What the people running an environment may do from the CLI or the console, as one customer
 * managed policy and a role that carries it (the stack's {@code OperatorRoleArn} output names
 * it; no fixed names, so deploying needs no named-IAM capability). The role trusts the account, so the account's own IAM decides which users and SSO permission sets may assume it; a
 * permission set can instead attach the policy directly. Recovery needs to watch and redrive
 * executions of this environment's state machines (design §9), nothing wider.
 */
public final class OperatorAccess extends Construct {

  /** What an operator may do to executions of this environment's state machines. */
  public static final List<String> EXECUTION_ACTIONS =
      List.of(
          "states:DescribeExecution",
          "states:GetExecutionHistory",
          "states:StopExecution",
          "states:RedriveExecution");

  private final ManagedPolicy policy;
  private final Role role;

  /**
   * @param prefix the environment prefix, e.g. {@code protomolt-dev}
   * @param graphAdmin where the environment's state machine and execution ARN patterns come from
   */
  public OperatorAccess(Construct scope, String id, String prefix, GraphAdminAccess graphAdmin) {
    super(scope, id);
    this.policy =
        ManagedPolicy.Builder.create(this, "Policy")
            .description("Operators of " + prefix + ": watch, stop and redrive executions")
            .statements(
                List.of(
                    PolicyStatement.Builder.create()
                        .actions(List.of("states:ListExecutions", "states:DescribeStateMachine"))
                        .resources(List.of(graphAdmin.stateMachinePattern()))
                        .build(),
                    PolicyStatement.Builder.create()
                        .actions(EXECUTION_ACTIONS)
                        .resources(List.of(graphAdmin.executionPattern()))
                        .build()))
            .build();
    this.role =
        Role.Builder.create(this, "Role")
            .assumedBy(new AccountRootPrincipal())
            .description("Assumed by the operators of " + prefix + " (protomolt CLI, console)")
            .managedPolicies(List.of(policy))
            .build();
  }

  /** Lets operators invoke an operator-facing function (an admin door such as dead letters). */
  public void grantInvoke(IFunction function) {
    policy.addStatements(
        PolicyStatement.Builder.create()
            .actions(List.of("lambda:InvokeFunction"))
            .resources(List.of(function.getFunctionArn()))
            .build());
  }

  public ManagedPolicy policy() {
    return policy;
  }

  public Role role() {
    return role;
  }
}
