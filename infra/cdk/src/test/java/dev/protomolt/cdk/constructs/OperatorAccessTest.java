package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
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

class OperatorAccessTest {

  private static final String EXECUTIONS =
      "arn:${AWS::Partition}:states:eu-west-1:123456789012:execution:protomolt-test-*:*";
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
    GraphAdminAccess graphAdmin =
        new GraphAdminAccess(
            stack,
            "GraphAdmin",
            new GraphAdminAccess.Props("protomolt-test", admin, List.of(prepare)));
    OperatorAccess operators = new OperatorAccess(stack, "Operators", "protomolt-test", graphAdmin);
    operators.grantInvoke(
        Function.fromFunctionArn(
            stack,
            "DlqAdmin",
            "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-dlq-admin:live"));
    template = Template.fromStack(stack);
  }

  @Test
  void operatorsMayRedriveOnlyThisEnvironmentsExecutions() {
    List<PolicyDocuments.Statement> statements =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.policyId().startsWith("OperatorsPolicy"))
            .toList();
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("states:RedriveExecution");
              assertThat(s.resources()).containsExactly(EXECUTIONS);
            });
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("states:ListExecutions");
              assertThat(s.resources()).containsExactly(STATE_MACHINES);
            });
    assertThat(statements).allSatisfy(s -> assertThat(s.resources()).doesNotContain("*"));
    assertThat(statements)
        .allSatisfy(
            s -> assertThat(s.actions()).doesNotContain("states:*", "states:StartExecution"));
  }

  @Test
  void operatorsMayInvokeTheDeadLetterDoorAndNoOtherFunction() {
    List<PolicyDocuments.Statement> invokes =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.policyId().startsWith("OperatorsPolicy"))
            .filter(s -> s.actions().contains("lambda:InvokeFunction"))
            .toList();
    assertThat(invokes)
        .singleElement()
        .satisfies(
            s ->
                assertThat(s.resources())
                    .containsExactly(
                        "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-dlq-admin:live"));
  }

  @Test
  @SuppressWarnings("unchecked") // CloudFormation properties are untyped JSON maps.
  void theOperatorRoleTrustsTheAccountAndCarriesThePolicy() {
    Map<String, Map<String, Object>> roles =
        template.findResources(
            "AWS::IAM::Role", Map.of("Properties", Map.of("ManagedPolicyArns", Match.anyValue())));
    assertThat(roles).hasSize(1);
    Map<String, Object> props =
        (Map<String, Object>) roles.values().iterator().next().get("Properties");
    Map<String, Object> trust =
        (Map<String, Object>)
            ((List<Object>)
                    ((Map<String, Object>) props.get("AssumeRolePolicyDocument")).get("Statement"))
                .getFirst();
    assertThat(trust.get("Action")).isEqualTo("sts:AssumeRole");
    assertThat(PolicyDocuments.render(((Map<String, Object>) trust.get("Principal")).get("AWS")))
        .isEqualTo("arn:${AWS::Partition}:iam::123456789012:root");
    assertThat(PolicyDocuments.render(((List<Object>) props.get("ManagedPolicyArns")).getFirst()))
        .startsWith("${OperatorsPolicy");
  }
}
