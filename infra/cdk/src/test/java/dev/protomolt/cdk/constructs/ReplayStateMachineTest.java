package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.PolicyDocuments.Statement;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The dev stack deploys {@code protomolt-dev-replay} from the statemachines builder, running as a
 * role that may invoke only its two steps and start only itself; the steps may start executions on
 * the environment's state machines and nothing more than the other ledger readers.
 */
class ReplayStateMachineTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    template = TestEnvironments.dev();
  }

  @SuppressWarnings("unchecked") // CloudFormation resources as the assertions library reads them
  private static Map<String, Object> properties(Map<String, Object> resource) {
    return (Map<String, Object>) resource.get("Properties");
  }

  @Test
  void theReplayMachineIsNamedForTheEnvironmentAndRunsTheBuilderDefinition() {
    Map<String, Map<String, Object>> machines =
        template.findResources("AWS::StepFunctions::StateMachine");
    assertThat(machines).hasSize(1);
    Map<String, Object> props = properties(machines.values().iterator().next());
    assertThat(props.get("StateMachineName")).isEqualTo("protomolt-dev-replay");
    assertThat(props.get("StateMachineType")).isEqualTo("STANDARD");
    String definition = PolicyDocuments.render(props.get("DefinitionString"));
    assertThat(definition)
        .contains("\"StartAt\": \"Validate\"")
        .contains("arn:aws:states:::states:startExecution")
        .contains("${FunctionsReplayValidate")
        .contains("${FunctionsReplayPage");
  }

  @Test
  void itsRoleInvokesOnlyItsStepsAndStartsOnlyItself() {
    String roleId =
        template.findResources("AWS::IAM::Role").entrySet().stream()
            .filter(
                e ->
                    String.valueOf(properties(e.getValue()).get("Description"))
                        .startsWith("Runs the replay state machine"))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    List<Statement> statements = PolicyDocuments.forRole(template, roleId);
    assertThat(statements).isNotEmpty();
    for (Statement s : statements) {
      if (s.actions().contains("states:StartExecution")) {
        assertThat(s.resources())
            .singleElement()
            .satisfies(r -> assertThat(r).endsWith(":stateMachine:protomolt-dev-replay"));
      } else {
        assertThat(s.actions()).containsExactly("lambda:InvokeFunction");
        assertThat(s.resources())
            .allSatisfy(r -> assertThat(r).containsAnyOf("ReplayValidate", "ReplayPage"));
      }
    }
    assertThat(statements.stream().flatMap(s -> s.actions().stream()))
        .contains("states:StartExecution", "lambda:InvokeFunction");
  }

  @Test
  void thePageStepMayStartExecutionsOnThisEnvironmentsMachinesOnly() {
    String pageRole =
        template.findResources("AWS::IAM::Role").keySet().stream()
            .filter(id -> id.startsWith("FunctionsReplayPage"))
            .findFirst()
            .orElseThrow();
    List<Statement> starts =
        PolicyDocuments.forRole(template, pageRole).stream()
            .filter(s -> s.actions().contains("states:StartExecution"))
            .toList();
    assertThat(starts)
        .singleElement()
        .satisfies(
            s ->
                assertThat(s.resources())
                    .singleElement()
                    .satisfies(r -> assertThat(r).endsWith(":stateMachine:protomolt-dev-*")));
  }
}
