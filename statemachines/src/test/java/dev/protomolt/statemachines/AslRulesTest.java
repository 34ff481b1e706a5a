package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The output checks, each fed a small hand-written definition that breaks exactly one rule. The
 * compiler never produces these; the checks exist so a compiler change that would is caught.
 */
class AslRulesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @SuppressWarnings("unchecked")
  private static List<CompileProblem> check(String json) throws Exception {
    return AslRules.check(JSON.readValue(json.replace('\'', '"'), Map.class));
  }

  private static String machine(String states) {
    return "{'StartAt': 'A', 'States': {" + states + "}}";
  }

  @Test
  void aWellFormedDefinitionPasses() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Pass', 'Parameters': {'x.$': '$.a[0].b'}, 'Next': 'B'}, 'B':"
                        + " {'Type': 'Succeed'}")))
        .isEmpty();
  }

  @Test
  void heartbeatMustBeBelowTimeout() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Task', 'Resource': 'arn:aws:states:::lambda:invoke',"
                        + " 'HeartbeatSeconds': 60, 'TimeoutSeconds': 30, 'End': true}")))
        .singleElement()
        .hasToString(
            "state 'A': HeartbeatSeconds (60) must be less than TimeoutSeconds (30); Step Functions"
                + " refuses the definition otherwise [heartbeat-below-timeout]");
  }

  @Test
  void timingMustBePositive() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Task', 'Resource': 'arn:aws:states:::lambda:invoke',"
                        + " 'TimeoutSeconds': 0, 'End': true}")))
        .singleElement()
        .hasToString(
            "state 'A': 'TimeoutSeconds' must be a positive integer, got 0 [positive-seconds]");
  }

  @Test
  void statesAllMustBeAloneInItsErrorEquals() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Task', 'Resource': 'arn:aws:states:::lambda:invoke', 'End':"
                        + " true, 'Catch': [{'ErrorEquals': ['States.ALL', 'X'], 'Next': 'A'}]}")))
        .singleElement()
        .hasToString(
            "state 'A' Catch[0]: States.ALL must be the only error name in its ErrorEquals, found"
                + " [States.ALL, X] [states-all-last-alone]");
  }

  @Test
  void statesAllMustBeTheLastRetrierAndCatcher() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Task', 'Resource': 'arn:aws:states:::lambda:invoke', 'End':"
                        + " true, 'Retry': [{'ErrorEquals': ['States.ALL']}, {'ErrorEquals':"
                        + " ['X']}], 'Catch': [{'ErrorEquals': ['States.ALL'], 'Next': 'A'},"
                        + " {'ErrorEquals': ['Y'], 'Next': 'A'}]}")))
        .extracting(CompileProblem::toString)
        .containsExactly(
            "state 'A' Retry[0]: the Retry entry with States.ALL must be the last one in the Retry"
                + " list [states-all-last-alone]",
            "state 'A' Catch[0]: the Catch entry with States.ALL must be the last one in the Catch"
                + " list [states-all-last-alone]");
  }

  @Test
  void stateNamesMustBeAtMostEightyCharacters() throws Exception {
    String name = "n".repeat(81);
    assertThat(
            check("{'StartAt': '" + name + "', 'States': {'" + name + "': {'Type': 'Succeed'}}}"))
        .singleElement()
        .hasToString(
            "state '"
                + name
                + "': the state name is 81 characters; Step Functions allows at most 80"
                + " [state-name-length]");
  }

  @Test
  void stateNamesMustBeUniqueAcrossMapProcessors() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Map', 'ItemsPath': '$.items', 'End': true, 'ItemProcessor':"
                        + " {'StartAt': 'A', 'States': {'A': {'Type': 'Succeed'}}}}")))
        .singleElement()
        .hasToString(
            "state 'A': the state name is used 2 times; Step Functions requires every state name to"
                + " be unique in the whole definition, including inside Map processors"
                + " [state-name-unique]");
  }

  @Test
  void payloadPathsMustStayInTheRuntimeSubset() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Pass', 'End': true, 'Parameters': {'a.$': '$..deep', 'b.$':"
                        + " '$.list[*]', 'c.$': '$$.Execution.StartTime', 'd.$': 'States.UUID()',"
                        + " 'nested': {'e.$': '$.items[?(@.x)]'}, 'ok.$': 'States.Array($.a,"
                        + " States.MathAdd($$.Map.Item.Index, 1))'}}")))
        .extracting(CompileProblem::toString)
        .containsExactly(
            "state 'A' Parameters: field 'a.$': '$..deep' is not a path the local runtime"
                + " implements (dot notation with optional [n] indexes, or one of the listed"
                + " context paths) [jsonpath-subset]",
            "state 'A' Parameters: field 'b.$': '$.list[*]' is not a path the local runtime"
                + " implements (dot notation with optional [n] indexes, or one of the listed"
                + " context paths) [jsonpath-subset]",
            "state 'A' Parameters: field 'c.$': '$$.Execution.StartTime' is not a path the local"
                + " runtime implements (dot notation with optional [n] indexes, or one of the"
                + " listed context paths) [jsonpath-subset]",
            "state 'A' Parameters: field 'd.$': intrinsic 'States.UUID()': 'States.UUID' is not one"
                + " of [States.Array, States.Format, States.Hash, States.JsonToString,"
                + " States.MathAdd, States.StringToJson] [jsonpath-subset]",
            "state 'A' Parameters: field 'e.$': '$.items[?(@.x)]' is not a path the local runtime"
                + " implements (dot notation with optional [n] indexes, or one of the listed"
                + " context paths) [jsonpath-subset]");
  }

  @Test
  void resultPathsAndChoiceVariablesMustStayInTheSubset() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Choice', 'Choices': [{'Variable': '$.a[-1]',"
                        + " 'StringEqualsPath': '$..b', 'Next': 'B'}], 'Default': 'B'}, 'B':"
                        + " {'Type': 'Pass', 'ResultPath': '$$.Task.Token', 'End': true}")))
        .extracting(CompileProblem::toString)
        .containsExactly(
            "state 'A' Choices[0]: 'Variable' is '$.a[-1]', not a path the local runtime implements"
                + " (dot notation with optional [n] indexes, or one of the listed context paths)"
                + " [jsonpath-subset]",
            "state 'A' Choices[0]: 'StringEqualsPath' is '$..b', not a path the local runtime"
                + " implements (dot notation with optional [n] indexes, or one of the listed"
                + " context paths) [jsonpath-subset]",
            "state 'B': 'ResultPath' is '$$.Task.Token'; a result path is '$' or dot-separated"
                + " field names, without indexes or context paths [jsonpath-subset]");
  }

  @Test
  void stateTypesResourcesFieldsAndOperatorsOutsideTheSubsetAreRefused() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Wait', 'Seconds': 1, 'Next': 'B'}, 'B': {'Type': 'Task',"
                        + " 'Resource': 'arn:aws:states:::sqs:sendMessage', 'Credentials': {},"
                        + " 'End': true}, 'C': {'Type': 'Choice', 'Choices': [{'Variable': '$.a',"
                        + " 'StringMatches': 'x*', 'Next': 'B'}]}")))
        .extracting(CompileProblem::toString)
        .containsExactly(
            "state 'A': state type 'Wait' is outside the subset [Choice, Fail, Map, Pass, Succeed,"
                + " Task] [asl-subset]",
            "state 'B': field 'Credentials' is not allowed on a Task state in the ASL subset the"
                + " local runtime implements [asl-subset]",
            "state 'B': Resource 'arn:aws:states:::sqs:sendMessage' is outside the subset"
                + " [arn:aws:states:::lambda:invoke,"
                + " arn:aws:states:::lambda:invoke.waitForTaskToken,"
                + " arn:aws:states:::states:startExecution] [asl-subset]",
            "state 'C' Choices[0]: choice operator 'StringMatches' is outside the subset"
                + " [BooleanEquals, IsNull, IsPresent, NumericEquals, NumericGreaterThan,"
                + " NumericLessThan, StringEquals, StringEqualsPath] [asl-subset]",
            "state 'C' Choices[0]: a choice rule needs exactly one comparison or combinator, found"
                + " 0 [choice-rules]");
  }

  @Test
  void transitionsMustNameStatesOfTheSameScope() throws Exception {
    assertThat(check(machine("'A': {'Type': 'Pass', 'Next': 'Nowhere'}")))
        .singleElement()
        .hasToString(
            "state 'A': 'Next' names 'Nowhere', which is not a state of the same 'States' object"
                + " [transition-target]");
  }

  @Test
  void retryBoundsFollowStepFunctions() throws Exception {
    assertThat(
            check(
                machine(
                    "'A': {'Type': 'Task', 'Resource': 'arn:aws:states:::lambda:invoke', 'End':"
                        + " true, 'Retry': [{'ErrorEquals': ['X'], 'BackoffRate': 0.5,"
                        + " 'IntervalSeconds': 0}]}")))
        .extracting(CompileProblem::toString)
        .containsExactly(
            "state 'A' Retry[0]: BackoffRate must be at least 1.0, got 0.5 [retry-bounds]",
            "state 'A' Retry[0]: IntervalSeconds must be a positive integer, got 0 [retry-bounds]");
  }
}
