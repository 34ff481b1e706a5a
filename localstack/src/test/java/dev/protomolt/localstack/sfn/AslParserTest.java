package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.sfn.asl.AslParser;
import dev.protomolt.localstack.sfn.asl.Definition;
import dev.protomolt.localstack.sfn.asl.InvalidDefinitionException;
import dev.protomolt.localstack.sfn.asl.State;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Create-time checks: everything outside the supported subset is refused with the state's
 * location and the construct, and every problem is reported at once.
 */
class AslParserTest {

  private static String task(String extra) {
    return """
    {"StartAt":"T","States":{"T":{"Type":"Task",
      "Resource":"arn:aws:states:::lambda:invoke",
      "Parameters":{"FunctionName":"f"},%s"End":true}}}\
    """
        .formatted(extra);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      value = {
        "Wait state|{\"StartAt\":\"W\",\"States\":{\"W\":{\"Type\":\"Wait\",\"Seconds\":1,\"End\":true}}}|state"
            + " type 'Wait' in state 'W'|/States/W/Type",
        "Parallel"
            + " state|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Parallel\",\"Branches\":[],\"End\":true}}}|state"
            + " type 'Parallel' in state 'P'|/States/P/Type",
        "JSONata|{\"QueryLanguage\":\"JSONata\",\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}|QueryLanguage"
            + " 'JSONata'|/QueryLanguage",
        "raw Lambda"
            + " ARN|{\"StartAt\":\"T\",\"States\":{\"T\":{\"Type\":\"Task\",\"Resource\":\"arn:aws:lambda:us-east-1:1:function:f\",\"End\":true}}}|Resource"
            + " 'arn:aws:lambda:us-east-1:1:function:f' in Task state 'T'|/States/T/Resource",
        "sync startExecution|{\"StartAt\":\"T\",\"States\":{\"T\":{\"Type\":\"Task\",\"Resource\":\"arn:aws:states:::states:startExecution.sync:2\",\"Parameters\":{\"StateMachineArn\":\"a\"},\"End\":true}}}|Resource"
            + " 'arn:aws:states:::states:startExecution.sync:2'|/States/T/Resource",
        "Assign"
            + " variables|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Assign\":{\"x\":1},\"End\":true}}}|field"
            + " 'Assign' in Pass state 'P'|/States/P/Assign",
        "StringMatches|{\"StartAt\":\"C\",\"States\":{\"C\":{\"Type\":\"Choice\",\"Choices\":[{\"Variable\":\"$.a\",\"StringMatches\":\"x*\",\"Next\":\"E\"}]},\"E\":{\"Type\":\"Succeed\"}}}|choice"
            + " rule field 'StringMatches' in Choice state 'C'|/States/C/Choices/0/StringMatches",
        "States.UUID|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Parameters\":{\"id.$\":\"States.UUID()\"},\"End\":true}}}|unsupported"
            + " intrinsic function States.UUID|/States/P/Parameters",
        "JSONPath"
            + " filter|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"InputPath\":\"$.a[?(@.b)]\",\"End\":true}}}|unsupported"
            + " JSONPath construct|/States/P/InputPath",
        "context"
            + " path|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Parameters\":{\"r.$\":\"$$.Execution.RedriveTime\"},\"End\":true}}}|unsupported"
            + " context object path $$.Execution.RedriveTime|/States/P/Parameters",
        "distributed"
            + " Map|{\"StartAt\":\"M\",\"States\":{\"M\":{\"Type\":\"Map\",\"ItemProcessor\":{\"ProcessorConfig\":{\"Mode\":\"DISTRIBUTED\"},\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}},\"End\":true}}}|ProcessorConfig"
            + " Mode 'DISTRIBUTED'|/States/M/ItemProcessor/ProcessorConfig/Mode",
        "ErrorPath on"
            + " Fail|{\"StartAt\":\"F\",\"States\":{\"F\":{\"Type\":\"Fail\",\"ErrorPath\":\"$.e\"}}}|field"
            + " 'ErrorPath' in Fail state 'F'|/States/F/ErrorPath",
        "ResultPath with"
            + " index|{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"ResultPath\":\"$.a[0]\",\"End\":true}}}|ResultPath"
            + " '$.a[0]'|/States/P/ResultPath"
      })
  void unsupportedConstructsNameStateAndConstruct(
      String what, String definition, String construct, String location) {
    assertThatThrownBy(() -> AslParser.parse(definition))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("UNSUPPORTED_CONSTRUCT")
        .hasMessageContaining(construct)
        .hasMessageContaining("at " + location);
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    InvalidDefinitionException e =
        Assertions.assertThrows(
            InvalidDefinitionException.class,
            () ->
                AslParser.parse(
                    """
                    {"StartAt":"A","States":{
                      "A":{"Type":"Pass","Next":"Missing"},
                      "Orphan":{"Type":"Succeed"},
                      "B":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                           "Parameters":{"FunctionName":"f"},"HeartbeatSeconds":60,"TimeoutSeconds":30,
                           "Retry":[{"ErrorEquals":["States.ALL","X"]}],"End":true}}}\
                    """));
    assertThat(e.problems())
        .anyMatch(
            p ->
                p.startsWith("MISSING_TRANSITION_TARGET")
                    && p.contains("Missing")
                    && p.endsWith("at /States/A/Next"));
    assertThat(e.problems())
        .anyMatch(p -> p.startsWith("UNREACHABLE_STATE") && p.contains("'Orphan'"));
    assertThat(e.problems())
        .anyMatch(
            p ->
                p.contains("HeartbeatSeconds must be smaller")
                    && p.endsWith("at /States/B/HeartbeatSeconds"));
    assertThat(e.problems())
        .anyMatch(
            p ->
                p.contains("States.ALL must appear alone")
                    && p.endsWith("at /States/B/Retry/0/ErrorEquals"));
  }

  @Test
  void statesAllMustBeTheLastCatcher() {
    assertThatThrownBy(
            () ->
                AslParser.parse(
                    """
                    {"StartAt":"T","States":{"T":{"Type":"Task",
                      "Resource":"arn:aws:states:::lambda:invoke","Parameters":{"FunctionName":"f"},
                      "Catch":[{"ErrorEquals":["States.ALL"],"Next":"E"},{"ErrorEquals":["X"],"Next":"E"}],
                      "End":true},"E":{"Type":"Succeed"}}}\
                    """))
        .hasMessageContaining("at /States/T/Catch/0/ErrorEquals");
  }

  @Test
  void retrierDefaultsAreAwsDefaults() {
    Definition d = AslParser.parse(task("\"Retry\":[{\"ErrorEquals\":[\"E\"]}],"));
    State.Retrier r = ((State.Task) d.state("T")).retriers().getFirst();
    // AWS: IntervalSeconds 1, MaxAttempts 3, BackoffRate 2.0, no MaxDelaySeconds, no jitter.
    assertThat(r.intervalSeconds()).isEqualTo(1);
    assertThat(r.maxAttempts()).isEqualTo(3);
    assertThat(r.backoffRate()).isEqualTo(2.0);
    assertThat(r.maxDelaySeconds()).isNull();
    assertThat(r.fullJitter()).isFalse();
  }

  @Test
  void invalidJsonIsNamed() {
    assertThatThrownBy(() -> AslParser.parse("{\"StartAt\":"))
        .hasMessageContaining("INVALID_JSON_DESCRIPTION");
  }

  @Test
  void theCompilerSubsetParses() {
    Definition d =
        AslParser.parse(
            """
            {"Comment":"graph g v3","StartAt":"Start","States":{
              "Start":{"Type":"Choice","Choices":[
                {"Variable":"$.node","StringEquals":"parse","Next":"parse.Prepare"}],
                "Default":"Done"},
              "parse.Prepare":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                "Parameters":{"FunctionName":"prepare","Payload.$":"$"},
                "ResultSelector":{"p.$":"$.Payload"},"ResultPath":"$.prepared","OutputPath":"$",
                "Retry":[{"ErrorEquals":["Lambda.ServiceException"],"IntervalSeconds":2,
                  "MaxAttempts":5,"BackoffRate":2,"MaxDelaySeconds":60,"JitterStrategy":"FULL"}],
                "Next":"parse.Work"},
              "parse.Work":{"Type":"Task",
                "Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                "Parameters":{"FunctionName":"dispatch",
                  "Payload":{"token.$":"$$.Task.Token","exec.$":"$$.Execution.Id",
                             "retry.$":"$$.State.RetryCount"}},
                "HeartbeatSeconds":30,"TimeoutSeconds":900,"InputPath":"$",
                "Catch":[{"ErrorEquals":["Module.Reject"],"ResultPath":"$.reject","Next":"Done"},
                         {"ErrorEquals":["States.ALL"],"ResultPath":"$.error","Next":"parse.Dlq"}],
                "Next":"parse.FanOut"},
              "parse.FanOut":{"Type":"Map","ItemsPath":"$.dests","MaxConcurrency":10,
                "ItemSelector":{"i.$":"$$.Map.Item.Index","d.$":"$$.Map.Item.Value"},
                "ItemProcessor":{"ProcessorConfig":{"Mode":"INLINE"},"StartAt":"Child",
                  "States":{"Child":{"Type":"Task",
                    "Resource":"arn:aws:states:::states:startExecution",
                    "Parameters":{"StateMachineArn.$":"$.d.arn","Name.$":"States.Hash($.d.k,'SHA-256')",
                      "Input.$":"States.StringToJson(States.JsonToString($.d))"},"End":true}}},
                "ResultPath":null,"Next":"Done"},
              "parse.Dlq":{"Type":"Fail","Error":"Dlq","Cause":"sent to DLQ"},
              "Done":{"Type":"Succeed"}}}\
            """);
    assertThat(d.states()).hasSize(6);
    assertThat(((State.Map) d.state("parse.FanOut")).maxConcurrency()).isEqualTo(10);
  }
}
