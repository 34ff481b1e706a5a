package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeployLimitsTest {

  @Test
  void requestBytesCountEscapesMultiByteTextAndWorstCaseArns() {
    assertThat(DeployLimits.requestBytes("{}")).isEqualTo(2 + 2);
    assertThat(DeployLimits.requestBytes("\"a\\b\""))
        .as("quotes and backslashes double")
        .isEqualTo(2 + 2 + 1 + 2 + 1 + 2);
    assertThat(DeployLimits.requestBytes("é€")).isEqualTo(2 + 2 + 3);
    String token = "${DlqFunctionArn}";
    assertThat(DeployLimits.requestBytes(token + token))
        .isEqualTo(2 + 2L * DeployLimits.WORST_CASE_ARN_LENGTH);
  }

  @Test
  void onlyKnownSubstitutionsMayAppearAndTheStateIsNamed() {
    List<CompileProblem> problems = new ArrayList<>();
    JsonObject definition =
        JsonObject.of()
            .with(
                "States",
                JsonObject.of()
                    .with(
                        "A",
                        JsonObject.of().with("Type", "Pass").with("Comment", "when ${x} holds"))
                    .with(
                        "B",
                        JsonObject.of()
                            .with("Type", "Task")
                            .with(
                                "Parameters",
                                JsonObject.of().with("FunctionName", "${DlqFunctionArn}")))
                    .with(
                        "C",
                        JsonObject.of()
                            .with("Type", "Pass")
                            .with("Comment", "unterminated ${PrepareFunctionArn")));
    DeployLimits.check(definition, "{}", 1, problems);
    assertThat(problems)
        .extracting(CompileProblem::location)
        .containsExactly("state 'A'", "state 'C'");
    assertThat(problems).extracting(CompileProblem::rule).containsOnly("substitution-syntax");
  }
}
