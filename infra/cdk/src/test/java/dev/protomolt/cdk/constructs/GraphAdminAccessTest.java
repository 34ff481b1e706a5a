package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;

class GraphAdminAccessTest {

  private static final String STATE_MACHINES =
      "arn:${AWS::Partition}:states:eu-west-1:123456789012:stateMachine:protomolt-test-*";

  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    Role admin =
        Role.Builder.create(stack, "Admin")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    IFunction prepare =
        Function.fromFunctionArn(
            stack,
            "Prepare",
            "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-prepare:live");
    Role intake =
        Role.Builder.create(stack, "Intake")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    GraphAdminAccess access =
        new GraphAdminAccess(
            stack,
            "GraphAdmin",
            new GraphAdminAccess.Props("protomolt-test", admin, List.of(prepare)));
    access.grantStartExecution(intake);
    template = Template.fromStack(stack);
  }

  @Test
  void graphAdminMayManageOnlyThisEnvironmentsStateMachinesAndPassOnlyTheExecutionRole() {
    var statements = PolicyDocuments.forRole(template, roleId("Admin"));
    assertThat(statements).hasSize(3);
    assertThat(statements.get(0).actions())
        .containsExactlyInAnyOrderElementsOf(GraphAdminAccess.STATE_MACHINE_ACTIONS);
    assertThat(statements.get(0).resources()).containsExactly(STATE_MACHINES);
    // Activation finds a machine by name; ListStateMachines cannot be scoped to a resource.
    assertThat(statements.get(1).actions()).containsExactly("states:ListStateMachines");
    assertThat(statements.get(1).resources()).containsExactly("*");
    assertThat(statements.get(2).actions()).containsExactly("iam:PassRole");
    assertThat(statements.get(2).resources())
        .containsExactly("${" + roleId("GraphAdminExecutionRole") + ".Arn}");
    assertThat(statements.get(2).condition())
        .isEqualTo(Map.of("StringEquals", Map.of("iam:PassedToService", "states.amazonaws.com")));
  }

  @Test
  void theLifecycleGrantNeverIncludesRunningOrStoppingExecutions() {
    assertThat(new HashSet<>(GraphAdminAccess.STATE_MACHINE_ACTIONS))
        .doesNotContain("states:StartExecution", "states:StopExecution", "states:*");
  }

  @Test
  void theExecutionRoleIsForStepFunctionsAndInvokesOnlyTheHops() {
    template.hasResourceProperties(
        "AWS::IAM::Role",
        Match.objectLike(
            Map.of(
                "AssumeRolePolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "Principal",
                                    Map.of("Service", "states.amazonaws.com"),
                                    "Action",
                                    "sts:AssumeRole"))))))));
    var statements = PolicyDocuments.forRole(template, roleId("GraphAdminExecutionRole"));
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).containsExactly("lambda:InvokeFunction");
              assertThat(s.resources())
                  .allMatch(r -> r.contains(":function:protomolt-test-prepare"));
            });
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).containsExactly("states:StartExecution");
              assertThat(s.resources()).containsExactly(STATE_MACHINES);
            });
  }

  @Test
  void intakeStartsExecutionsAndReadsThemButCannotChangeMachines() {
    var statements = PolicyDocuments.forRole(template, roleId("Intake"));
    assertThat(statements.stream().flatMap(s -> s.actions().stream()))
        .containsExactlyInAnyOrder(
            "states:StartExecution",
            "states:DescribeStateMachineAlias",
            "states:DescribeExecution");
    assertThat(statements.stream().flatMap(s -> s.resources().stream()))
        .containsExactlyInAnyOrder(
            STATE_MACHINES,
            "arn:${AWS::Partition}:states:eu-west-1:123456789012:execution:protomolt-test-*:*");
  }

  @Test
  void propsRejectAnEmptyPrefixOrNoHops() {
    assertThatThrownBy(() -> new GraphAdminAccess.Props("", null, List.of()))
        .hasMessageContaining("state machine name prefix");
  }

  private static String roleId(String prefix) {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith(prefix))
        .findFirst()
        .orElseThrow();
  }
}
