package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.asl.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Input and output processing, Pass, Choice, Succeed and Fail, each against the behaviour the AWS
 * Step Functions developer guide documents ("Processing input and output in Step Functions",
 * "Pass workflow state", "Choice workflow state").
 */
class InputOutputProcessingTest {

  private static SfnFixture sfn;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register(
        "greet", payload -> "\"Hello, " + Json.parse(payload).get("who").asText() + "!\"");
    sfn.lambdas.register("echo", payload -> payload);
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  private static JsonNode output(DescribeExecutionResponse response) {
    assertThat(response.status())
        .as(response.error() + " " + response.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    return Json.parse(response.output());
  }

  /**
   * AWS: InputPath selects the task's input, the result is placed by ResultPath into the state's
   * original input, and OutputPath then filters that combined document. ResultSelector shapes the
   * raw Lambda result ({"Payload": ...}) before ResultPath.
   */
  @Test
  void inputPathResultSelectorResultPathOutputPathApplyInDocumentedOrder() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"Greet","States":{"Greet":{"Type":"Task",
              "Resource":"arn:aws:states:::lambda:invoke",
              "InputPath":"$.lambda",
              "Parameters":{"FunctionName":"greet","Payload.$":"$"},
              "ResultSelector":{"greeting.$":"$.Payload","code.$":"$.StatusCode"},
              "ResultPath":"$.data.lambdaresult",
              "OutputPath":"$.data","End":true}}}\
            """,
            """
            {"comment":"An input comment.","data":{"val1":23,"val2":17},"extra":"foo",
             "lambda":{"who":"AWS Step Functions"}}\
            """);

    assertThat(output(r))
        .isEqualTo(
            Json.parse(
                """
                {"val1":23,"val2":17,
                 "lambdaresult":{"greeting":"Hello, AWS Step Functions!","code":200}}\
                """));
    assertThat(sfn.lambdas.invocationsOf("greet").getLast().payload())
        .isEqualTo("{\"who\":\"AWS Step Functions\"}");
  }

  /** AWS: the optimized lambda:invoke integration returns Payload, StatusCode and SDK metadata. */
  @Test
  void lambdaInvokeResultHasTheOptimizedIntegrationShape() {
    JsonNode out =
        output(
            sfn.run(
                """
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                  "Parameters":{"FunctionName":"arn:aws:lambda:us-east-1:000000000000:function:echo",
                                "Payload":{"x":1}},"End":true}}}\
                """,
                "{}"));

    assertThat(out.get("Payload")).isEqualTo(Json.parse("{\"x\":1}"));
    assertThat(out.get("StatusCode").asInt()).isEqualTo(200);
    assertThat(out.get("ExecutedVersion").asText()).isEqualTo("$LATEST");
    assertThat(out.has("SdkHttpMetadata")).isTrue();
  }

  /**
   * AWS: Parameters with ".$" keys take values from paths and the context object; nested objects
   * are templates too; ResultPath null keeps the input; OutputPath null gives {}.
   */
  @Test
  void parametersContextObjectAndNullPaths() {
    JsonNode out =
        output(
            sfn.run(
                """
                {"StartAt":"Shape","States":{
                  "Shape":{"Type":"Pass","Parameters":{"id.$":"$.ids[1]","static":"s",
                      "nested":{"exec.$":"$$.Execution.Name","state.$":"$$.State.Name",
                                "original.$":"$$.Execution.Input.ids[0]"}},
                    "ResultPath":"$.shaped","Next":"Discard"},
                  "Discard":{"Type":"Pass","Result":{"ignored":true},"ResultPath":null,"Next":"Keep"},
                  "Keep":{"Type":"Pass","End":true}}}\
                """,
                "{\"ids\":[\"a\",\"b\"]}"));

    assertThat(out.get("ids")).isEqualTo(Json.parse("[\"a\",\"b\"]"));
    assertThat(out.at("/shaped/id").asText()).isEqualTo("b");
    assertThat(out.at("/shaped/static").asText()).isEqualTo("s");
    assertThat(out.at("/shaped/nested/state").asText()).isEqualTo("Shape");
    assertThat(out.at("/shaped/nested/original").asText()).isEqualTo("a");
    assertThat(out.at("/shaped/nested/exec").asText()).isNotBlank();
    assertThat(out.has("ignored")).isFalse();

    JsonNode empty =
        output(
            sfn.run(
                """
                {"StartAt":"P","States":{"P":{"Type":"Pass","OutputPath":null,"End":true}}}\
                """,
                "{\"a\":1}"));
    assertThat(empty).isEqualTo(Json.object());
  }

  /** AWS Pass: Result replaces the input by default (ResultPath "$"). */
  @Test
  void passResultReplacesInputByDefault() {
    assertThat(
            output(
                sfn.run(
                    """
                    {"StartAt":"P","States":{"P":{"Type":"Pass","Result":{"x":[1,2]},"End":true}}}\
                    """,
                    "{\"a\":1}")))
        .isEqualTo(Json.parse("{\"x\":[1,2]}"));
  }

  /** AWS: a path in Parameters that does not exist fails the execution with States.Runtime. */
  @Test
  void missingParameterPathIsStatesRuntime() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"x.$":"$.missing"},
              "End":true}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.Runtime");
    assertThat(r.cause()).contains("$.missing");
  }

  private static final String CHOICE =
      """
      {"StartAt":"C","States":{
        "C":{"Type":"Choice","Choices":[
           {"Variable":"$.kind","StringEquals":"doc","Next":"Doc"},
           {"And":[{"Variable":"$.n","NumericGreaterThan":10},
                   {"Variable":"$.n","NumericLessThan":20}],"Next":"Teen"},
           {"Or":[{"Variable":"$.n","NumericEquals":0},
                  {"Variable":"$.flag","BooleanEquals":true}],"Next":"ZeroOrFlag"},
           {"Not":{"Variable":"$.opt","IsPresent":true},"Next":"NoOpt"},
           {"Variable":"$.opt","IsNull":true,"Next":"NullOpt"},
           {"Variable":"$.a","StringEqualsPath":"$.b","Next":"Same"}],
         "Default":"Other"},
        "Doc":{"Type":"Pass","Result":"Doc","End":true},
        "Teen":{"Type":"Pass","Result":"Teen","End":true},
        "ZeroOrFlag":{"Type":"Pass","Result":"ZeroOrFlag","End":true},
        "NoOpt":{"Type":"Pass","Result":"NoOpt","End":true},
        "NullOpt":{"Type":"Pass","Result":"NullOpt","End":true},
        "Same":{"Type":"Pass","Result":"Same","End":true},
        "Other":{"Type":"Pass","Result":"Other","End":true}}}\
      """;

  /** AWS Choice: rules are tried in order, the first match wins, else Default. */
  @Test
  void choiceRulesInOrderThenDefault() {
    String arn = sfn.createMachine("choice", CHOICE);
    String[][] cases = {
      {"{\"kind\":\"doc\",\"n\":15}", "Doc"},
      {"{\"kind\":\"x\",\"n\":15}", "Teen"},
      {"{\"kind\":\"x\",\"n\":0}", "ZeroOrFlag"},
      {"{\"kind\":\"x\",\"n\":5,\"flag\":true}", "ZeroOrFlag"},
      {"{\"kind\":\"x\",\"n\":5,\"flag\":false}", "NoOpt"},
      {"{\"kind\":\"x\",\"n\":5,\"flag\":false,\"opt\":null}", "NullOpt"},
      {"{\"kind\":\"x\",\"n\":5,\"flag\":false,\"opt\":1,\"a\":\"q\",\"b\":\"q\"}", "Same"},
      {"{\"kind\":\"x\",\"n\":5,\"flag\":false,\"opt\":1,\"a\":\"q\",\"b\":\"r\"}", "Other"},
      // A string is never NumericEquals, whatever it spells.
      {"{\"kind\":1,\"n\":\"0\",\"flag\":false,\"opt\":1,\"a\":\"q\",\"b\":\"r\"}", "Other"}
    };
    for (String[] c : cases) {
      DescribeExecutionResponse r = sfn.awaitClosed(sfn.startExecution(arn, c[0]));
      assertThat(output(r).asText()).as(c[0]).isEqualTo(c[1]);
    }
  }

  /** AWS Choice: no match and no Default fails with States.NoChoiceMatched. */
  @Test
  void noChoiceMatchedWithoutDefault() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[
              {"Variable":"$.x","StringEquals":"y","Next":"E"}]},
              "E":{"Type":"Succeed"}}}\
            """,
            "{\"x\":\"z\"}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.NoChoiceMatched");
  }

  /** AWS Fail: the execution fails with the state's Error and Cause. */
  @Test
  void failStateSetsErrorAndCause() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Doc.Rejected",
              "Cause":"bad document"}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("Doc.Rejected");
    assertThat(r.cause()).isEqualTo("bad document");
  }

  /** AWS Succeed: InputPath and OutputPath apply; the execution succeeds with the result. */
  @Test
  void succeedAppliesInputAndOutputPath() {
    assertThat(
            output(
                sfn.run(
                    """
                    {"StartAt":"S","States":{"S":{"Type":"Succeed","InputPath":"$.a","OutputPath":"$.b"}}}\
                    """,
                    "{\"a\":{\"b\":[7]}}")))
        .isEqualTo(Json.parse("[7]"));
  }

  /** AWS intrinsics inside Parameters: Format, JsonToString, StringToJson, Array, MathAdd, Hash. */
  @Test
  void intrinsicsInParameters() {
    JsonNode out =
        output(
            sfn.run(
                """
                {"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{
                  "name.$":"States.Format('doc-{}-{}', $.id, $.n)",
                  "text.$":"States.JsonToString($.obj)",
                  "back.$":"States.StringToJson($.json)",
                  "list.$":"States.Array($.id, 2, States.MathAdd($.n, 1))",
                  "hash.$":"States.Hash($.id, 'SHA-256')"},"End":true}}}\
                """,
                "{\"id\":\"abc\",\"n\":41,\"obj\":{\"k\":[1]},\"json\":\"{\\\"z\\\":true}\"}"));

    assertThat(out.get("name").asText()).isEqualTo("doc-abc-41");
    assertThat(out.get("text").asText()).isEqualTo("{\"k\":[1]}");
    assertThat(out.get("back")).isEqualTo(Json.parse("{\"z\":true}"));
    assertThat(out.get("list")).isEqualTo(Json.parse("[\"abc\",2,42]"));
    assertThat(out.get("hash").asText())
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  /**
   * AWS quotas: a state's output over 256 KiB fails the execution with States.DataLimitExceeded,
   * which not even a States.ALL catcher handles.
   */
  @Test
  void outputOverTheQuotaIsDataLimitExceeded() {
    sfn.lambdas.register("big", payload -> "\"" + "x".repeat(300 * 1024) + "\"");
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
              "Parameters":{"FunctionName":"big"},
              "Catch":[{"ErrorEquals":["States.ALL"],"Next":"C"}],"End":true},
              "C":{"Type":"Pass","End":true}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.DataLimitExceeded");
  }

  /**
   * AWS Choice: a comparison on a Variable that is not in the input fails the execution with
   * States.Runtime (IsPresent is the way to test for presence).
   */
  @Test
  void choiceOnAMissingVariableIsStatesRuntime() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[
              {"Variable":"$.absent","StringEquals":"y","Next":"E"}],"Default":"E"},
              "E":{"Type":"Succeed"}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.Runtime");
    assertThat(r.cause()).contains("$.absent");
  }

  /**
   * AWS: a ResultPath that cannot be applied to the input (here: the input is an array) raises
   * States.ResultPathMatchFailure, which a catcher can handle.
   */
  @Test
  void resultPathOnANonObjectIsCatchable() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
              "Parameters":{"FunctionName":"echo","Payload":{}},"ResultPath":"$.r",
              "Catch":[{"ErrorEquals":["States.ResultPathMatchFailure"],"ResultPath":null,
                        "Next":"C"}],"End":true},
              "C":{"Type":"Pass","End":true}}}\
            """,
            "[1]");
    assertThat(output(r)).isEqualTo(Json.parse("[1]"));
  }
}
