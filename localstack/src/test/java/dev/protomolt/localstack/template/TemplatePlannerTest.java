package dev.protomolt.localstack.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What a template resolves to locally, and every template the local cloud refuses, and why. */
class TemplatePlannerTest {

  static final StackContext STACK = new StackContext("small", "us-east-1", "000000000000");
  static final LocalServices SERVICES = new LocalServices("127.0.0.1", 54321);
  static final Map<String, String> RUNTIME =
      Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000", "AWS_REGION", "overridden");

  private final TestRuntimes runtimes = new TestRuntimes();

  static String smallStack() {
    try (InputStream in =
        TemplatePlannerTest.class.getResourceAsStream("/templates/small-stack.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private TemplatePlan plan(String json) {
    return TemplatePlanner.plan(
        CloudFormationTemplate.parse(json),
        STACK,
        SERVICES,
        RUNTIME,
        runtimes.functions,
        runtimes.containers);
  }

  @Test
  void everyIntrinsicInAFunctionsEnvironmentResolvesToTheLocalResources() {
    DeployedFunction echo = plan(smallStack()).function("small-echo");
    assertThat(echo.environment())
        .containsEntry("BUCKET", "small-000000000000-uploads")
        .containsEntry("TABLE_ARN", "arn:aws:dynamodb:us-east-1:000000000000:table/small-drafts")
        .containsEntry("DB_HOST", "127.0.0.1")
        .containsEntry("DB_PORT", "54321")
        .containsEntry("SUB_MAP", "small-us-east-1-arn:aws:s3:::small-000000000000-uploads")
        .containsEntry("FIRST_AZ", "us-east-1a")
        .containsEntry("PARTITION_SUFFIX", "aws.amazonaws.com")
        .containsEntry("STAGE", "local")
        .containsEntry("LITERAL", "${NotAVariable}");
    assertThat(echo.environment().get("CLUSTER_ARN"))
        .startsWith("arn:aws:kafka:us-east-1:000000000000:cluster/small/");
  }

  @Test
  void eachFunctionGetsItsOwnCredentialsAndTheRuntimesReservedVariables() {
    TemplatePlan plan = plan(smallStack());
    DeployedFunction echo = plan.function("small-echo");
    DeployedFunction slow = plan.function("small-slow");
    assertThat(echo.credentials().accessKeyId())
        .matches("AKIA[A-Z2-7]{16}")
        .isNotEqualTo(slow.credentials().accessKeyId());
    assertThat(echo.credentials()).isEqualTo(FunctionCredentials.of("small", "Echo"));
    assertThat(echo.environment())
        .containsEntry("AWS_ACCESS_KEY_ID", echo.credentials().accessKeyId())
        .containsEntry("AWS_SECRET_ACCESS_KEY", echo.credentials().secretAccessKey())
        .containsEntry("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000")
        // The runtime's region wins over anything else, as Lambda reserves the key.
        .containsEntry("AWS_REGION", "us-east-1")
        .containsEntry("AWS_LAMBDA_FUNCTION_NAME", "small-echo")
        .containsEntry("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512");
    assertThat(echo.handler()).isEqualTo("echo");
    assertThat(echo.roleLogicalId()).isEqualTo("EchoRole");
    assertThat(echo.roleArn()).isEqualTo("arn:aws:iam::000000000000:role/small-EchoRole");
    assertThat(echo.timeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(echo.reservedConcurrency()).isEmpty();
    assertThat(plan.function("small-throttled").reservedConcurrency()).isEqualTo(OptionalInt.of(0));
    assertThat(echo.credentials().toString()).doesNotContain(echo.credentials().secretAccessKey());
  }

  @Test
  void aliasesVersionsTriggersSchedulesAndTablesArePlannedFromTheirProperties() {
    TemplatePlan plan = plan(smallStack());
    // Providers (the CDK provider framework, the bucket-notifications handler) do not run, and a
    // resource whose condition is false is not deployed.
    assertThat(plan.functions())
        .extracting(DeployedFunction::functionName)
        .containsExactly("small-echo", "small-throttled", "small-slow");
    assertThat(plan.function("arn:aws:lambda:us-east-1:000000000000:function:small-echo:live"))
        .isEqualTo(plan.function("small-echo"));
    assertThat(plan.qualifiedArns())
        .containsEntry("arn:aws:lambda:us-east-1:000000000000:function:small-echo:1", "small-echo");
    assertThat(plan.kafkaTriggers())
        .containsExactly(
            new TemplatePlan.KafkaTrigger(
                "EventsTrigger",
                "small-echo",
                java.util.List.of("small-events"),
                "small-echo",
                10,
                java.time.Duration.ofSeconds(2),
                "TRIM_HORIZON",
                true));
    assertThat(plan.topics()).containsExactly(new TemplatePlan.Topic("Topics", "small-events", 2));
    assertThat(plan.migrations())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.logicalId()).isEqualTo("Migration");
              assertThat(m.functionName())
                  .isEqualTo("arn:aws:lambda:us-east-1:000000000000:function:small-echo:live");
            });
    assertThat(plan.schedules())
        .extracting(
            TemplatePlan.Schedule::name,
            TemplatePlan.Schedule::expression,
            TemplatePlan.Schedule::input)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "small-nightly", "cron(0 3 * * ? *)", "{\"job\":\"nightly\"}"),
            org.assertj.core.groups.Tuple.tuple("small-hourly", "rate(1 hour)", null));
    assertThat(plan.tables())
        .containsExactly(
            new TemplatePlan.Table(
                "Drafts",
                "small-drafts",
                java.util.List.of(
                    new TemplatePlan.KeyElement("pk", "HASH"),
                    new TemplatePlan.KeyElement("sk", "RANGE")),
                Map.of("pk", "S", "sk", "S"),
                "expiresAt"));
    assertThat(plan.buckets())
        .singleElement()
        .satisfies(
            b -> assertThat(b.lifecycleRules().get(0).path("Prefix").asText()).isEqualTo("cache/"));
    assertThat(plan.notifications())
        .containsExactly(
            new TemplatePlan.Notification(
                "UploadsNotifications", "small-000000000000-uploads", "in/", "", "small-echo"));
    assertThat(plan.containers())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.environment()).containsEntry("TABLE", "small-drafts");
              assertThat(c.environment()).containsEntry("AWS_REGION", "overridden");
              assertThat(c.credentials()).isEqualTo(FunctionCredentials.of("small", "Task"));
              assertThat(c.taskRoleLogicalId()).isEqualTo("EchoRole");
            });
    assertThat(plan.stateMachines())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.name()).isEqualTo("small-flow");
              assertThat(m.roleArn()).isEqualTo("arn:aws:iam::000000000000:role/small-EchoRole");
              assertThat(m.definition())
                  .contains(
                      "\"FunctionName\":\"arn:aws:lambda:us-east-1:000000000000:function:small-echo:live\"");
            });
    assertThat(plan.iam())
        .extracting(TemplatePlan.IamResource::logicalId)
        .containsExactly("EchoRole", "EchoPolicy");
    assertThat(plan.iam().get(1).properties().toString())
        .contains("arn:aws:s3:::small-000000000000-uploads/*");
  }

  @Test
  void anUnsupportedTypeFailsNamingItsLogicalIdAndType() {
    String json =
        smallStack()
            .replace(
                "\"Logs\": { \"Type\": \"AWS::Logs::LogGroup\"",
                "\"Queue\": { \"Type\": \"AWS::SQS::Queue\"");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.logicalId()).isEqualTo("Queue");
                          assertThat(p.type()).isEqualTo("AWS::SQS::Queue");
                        }))
        .hasMessageContaining(
            "Queue (AWS::SQS::Queue): is a resource type the local cloud does not deploy");
  }

  @Test
  void anUnresolvableIntrinsicFailsNamingTheResourceAndWhere() {
    String json =
        smallStack()
            .replace(
                "\"DB_HOST\": { \"Fn::GetAtt\": [\"Proxy\", \"Endpoint\"] }",
                "\"DB_HOST\": { \"Fn::GetAtt\": [\"NoSuchProxy\", \"Endpoint\"] }")
            .replace(
                "\"STAGE\": { \"Fn::If\": [\"IsProd\", \"prod\", { \"Ref\": \"Stage\" }] }",
                "\"STAGE\": { \"Fn::ImportValue\": \"shared-stage\" }");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .extracting(TemplateProblem::logicalId)
                    .containsOnly("Echo"))
        .hasMessageContaining(
            "Echo (AWS::Lambda::Function) Properties.Environment.Variables.DB_HOST.Fn::GetAtt:"
                + " Fn::GetAtt NoSuchProxy.Endpoint cannot be resolved locally");
    String imported =
        smallStack()
            .replace(
                "\"STAGE\": { \"Fn::If\": [\"IsProd\", \"prod\", { \"Ref\": \"Stage\" }] }",
                "\"STAGE\": { \"Fn::ImportValue\": \"shared-stage\" }");
    assertThatThrownBy(() -> plan(imported))
        .hasMessageContaining(
            "Fn::ImportValue is not supported by the local cloud's template deployer");
  }

  @Test
  void aHandlerNoRuntimeHasFailsNamingTheFunction() {
    String json =
        smallStack()
            .replace(
                "\"QUARKUS_LAMBDA_HANDLER\": \"wait-forever\"",
                "\"QUARKUS_LAMBDA_HANDLER\": \"sleepy\"");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOf(InvalidTemplateException.class)
        .hasMessageContaining(
            "Slow (AWS::Lambda::Function) Properties.Handler:"
                + " 'io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest' with"
                + " QUARKUS_LAMBDA_HANDLER=sleepy names no handler the local function runtime has");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    String json =
        smallStack()
            .replace("\"StartingPosition\": \"TRIM_HORIZON\"", "\"StartingPosition\": \"LATEST\"")
            .replace("\"Name\": \"Gateway\"", "\"Name\": \"Sidecar\"")
            .replace("\"Ref\": \"AWS::StackName\"", "\"Ref\": \"NoSuchThing\"")
            .replace(
                "\"Arn\": { \"Fn::GetAtt\": [\"Echo\", \"Arn\"] }, \"Id\": \"echo\"",
                "\"Arn\": \"arn:aws:lambda:us-east-1:000000000000:function:elsewhere\", \"Id\":"
                    + " \"echo\"");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .extracting(TemplateProblem::logicalId)
                    .containsExactlyInAnyOrder("Echo"))
        .hasMessageContaining(
            "Ref to 'NoSuchThing', which is no resource, parameter or pseudo parameter");
    // Once every intrinsic resolves, the planning problems are reported together.
    String planning =
        smallStack()
            .replace("\"StartingPosition\": \"TRIM_HORIZON\"", "\"StartingPosition\": \"LATEST\"")
            .replace("\"Name\": \"Gateway\"", "\"Name\": \"Sidecar\"")
            .replace(
                "\"Arn\": { \"Fn::GetAtt\": [\"Echo\", \"Arn\"] }, \"Id\": \"echo\"",
                "\"Arn\": \"arn:aws:lambda:us-east-1:000000000000:function:elsewhere\", \"Id\":"
                    + " \"echo\"");
    assertThatThrownBy(() -> plan(planning))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .extracting(TemplateProblem::logicalId, TemplateProblem::field)
                    .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(
                            "EventsTrigger", "Properties.StartingPosition"),
                        org.assertj.core.groups.Tuple.tuple(
                            "Task", "Properties.ContainerDefinitions.Sidecar"),
                        org.assertj.core.groups.Tuple.tuple("Hourly", "Target.Arn")))
        .hasMessageContaining("'LATEST' is not supported locally yet")
        .hasMessageContaining("invokes 'elsewhere', which is no function this template deploys");
  }

  @Test
  void aBatchingWindowOutsideLambdasRangeIsRefusedNamingTheField() {
    for (String bad : List.of("301", "-1", "1.5", "\"soon\"")) {
      String json =
          smallStack()
              .replace(
                  "\"MaximumBatchingWindowInSeconds\": 2",
                  "\"MaximumBatchingWindowInSeconds\": " + bad);
      assertThatThrownBy(() -> plan(json))
          .as(bad)
          .isInstanceOfSatisfying(
              InvalidTemplateException.class,
              e ->
                  assertThat(e.problems())
                      .singleElement()
                      .satisfies(
                          p -> {
                            assertThat(p.logicalId()).isEqualTo("EventsTrigger");
                            assertThat(p.field())
                                .isEqualTo("Properties.MaximumBatchingWindowInSeconds");
                            assertThat(p.rule()).contains("0 to 300");
                          }));
    }
  }

  @Test
  void aStateMachineOutsideTheLocalRuntimesSubsetIsRefusedBeforeAnythingStarts() {
    String json =
        smallStack()
            .replace("arn:aws:states:::lambda:invoke\\\"", "arn:aws:states:::sqs:sendMessage\\\"");
    assertThat(json).contains("sqs:sendMessage");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.logicalId()).isEqualTo("Flow");
                          assertThat(p.field()).isEqualTo("Properties.DefinitionString");
                          assertThat(p.rule()).contains("arn:aws:states:::sqs:sendMessage");
                        }));
  }

  @Test
  void malformedTemplatesAreRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> CloudFormationTemplate.parse("{"))
        .isInstanceOf(InvalidTemplateException.class)
        .hasMessageContaining("$: is not JSON");
    assertThatThrownBy(() -> CloudFormationTemplate.parse("{\"Resources\": {}}"))
        .hasMessageContaining("Resources: must be a non-empty object");
    assertThatThrownBy(
            () -> CloudFormationTemplate.parse("{\"Resources\": {\"A\": {\"Properties\": {}}}}"))
        .hasMessageContaining("A Type: is required and must be a string");
  }
}
