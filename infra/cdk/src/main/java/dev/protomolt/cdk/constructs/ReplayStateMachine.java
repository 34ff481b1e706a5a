package dev.protomolt.cdk.constructs;

import dev.protomolt.statemachines.ReplayMachine;
import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.stepfunctions.CfnStateMachine;
import software.constructs.Construct;

/**
 * {@code <prefix>-replay}, the state machine operators start from the console to replay stored
 * documents (decision 1700), with its definition from {@link ReplayMachine} and a role that may
 * invoke its two step functions and start only itself (a run continuing as a new execution).
 */
public final class ReplayStateMachine extends Construct {

  /** Validated settings. */
  public record Props(String prefix, IFunction validate, IFunction page) {
    public Props {
      if (prefix == null || prefix.isBlank()) {
        throw new IllegalArgumentException("replay state machine: the prefix is required");
      }
      if (validate == null || page == null) {
        throw new IllegalArgumentException(
            "replay state machine: the replay-validate and replay-page functions are required");
      }
    }
  }

  private final CfnStateMachine machine;
  private final String name;

  public ReplayStateMachine(Construct scope, String id, Props props) {
    super(scope, id);
    this.name = props.prefix() + "-replay";
    Role role =
        Role.Builder.create(this, "Role")
            .assumedBy(new ServicePrincipal("states.amazonaws.com"))
            .description("Runs the replay state machine " + name)
            .build();
    props.validate().grantInvoke(role);
    props.page().grantInvoke(role);
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("states:StartExecution"))
            .resources(List.of(arn()))
            .build());
    this.machine =
        CfnStateMachine.Builder.create(this, "Machine")
            .stateMachineName(name)
            .stateMachineType("STANDARD")
            .roleArn(role.getRoleArn())
            .definitionString(
                ReplayMachine.definition(
                    props.validate().getFunctionArn(), props.page().getFunctionArn()))
            .build();
    machine.getNode().addDependency(role);
  }

  /** The machine's ARN, built from its name so a policy can name it before it exists. */
  public String arn() {
    Stack stack = Stack.of(this);
    return "arn:"
        + stack.getPartition()
        + ":states:"
        + stack.getRegion()
        + ":"
        + stack.getAccount()
        + ":stateMachine:"
        + name;
  }

  public String name() {
    return name;
  }

  public CfnStateMachine machine() {
    return machine;
  }
}
