package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PlatformFunction;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.RetentionDays;

class PipelineFunctionsTest {

  private static Template template;
  private static Network network;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    network =
        new Network(
            stack,
            "Network",
            new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    new PipelineFunctions(
        stack,
        "Functions",
        new PipelineFunctions.Props(
            "protomolt-test",
            Code.fromAsset(TestEnvironments.PLACEHOLDER_LAMBDA),
            network.vpc(),
            network.appSubnets(),
            1024,
            Map.of(PlatformFunction.MIGRATE, 2048),
            60,
            RetentionDays.TWO_WEEKS,
            Map.of("PROTOMOLT_ENV", "test")));
    template = Template.fromStack(stack);
  }

  @Test
  void java25RuntimeExistsInThisCdkRelease() {
    // If a CDK upgrade ever dropped the constant, the functions below would not build.
    assertThat(Runtime.JAVA_25.getName()).isEqualTo("java25");
    assertThat(Runtime.JAVA_25.getSupportsSnapStart()).isTrue();
  }

  @Test
  void everyFunctionRunsTheOneZipWithItsOwnHandler() {
    template.resourceCountIs("AWS::Lambda::Function", PlatformFunction.values().length);
    for (PlatformFunction pf : PlatformFunction.values()) {
      template.hasResourceProperties(
          "AWS::Lambda::Function",
          Match.objectLike(
              Map.of(
                  "FunctionName",
                  "protomolt-test-" + pf.id(),
                  "Runtime",
                  "java25",
                  "Handler",
                  PipelineFunctions.QUARKUS_HANDLER,
                  "MemorySize",
                  pf == PlatformFunction.MIGRATE ? 2048 : 1024,
                  "Timeout",
                  60,
                  "SnapStart",
                  Map.of("ApplyOn", "PublishedVersions"),
                  "VpcConfig",
                  Match.objectLike(Map.of("SubnetIds", Match.anyValue())),
                  "Environment",
                  Map.of(
                      "Variables",
                      Map.of(
                          "QUARKUS_LAMBDA_HANDLER", pf.handlerName(), "PROTOMOLT_ENV", "test")))));
    }
    assertThat(PlatformFunction.values())
        .extracting(PlatformFunction::id)
        .containsExactly(
            "graph-admin",
            "intake",
            "prepare",
            "dispatch",
            "complete",
            "dlq",
            "purge",
            "reclaim",
            "indexing-ledger",
            "settlement",
            "account-events",
            "reconciler",
            "retention",
            "replay-validate",
            "replay-page",
            "dlq-admin",
            "migrate",
            "console-api");
  }

  @Test
  void everyFunctionPublishesAVersionBehindTheLiveAlias() {
    template.resourceCountIs("AWS::Lambda::Version", PlatformFunction.values().length);
    template.resourceCountIs("AWS::Lambda::Alias", PlatformFunction.values().length);
    template.allResourcesProperties(
        "AWS::Lambda::Alias",
        Match.objectLike(
            Map.of(
                "Name",
                PipelineFunctions.ALIAS,
                "FunctionVersion",
                Map.of("Fn::GetAtt", List.of(Match.anyValue(), "Version")))));
  }

  @Test
  void logsAreKeptForTheConfiguredPeriod() {
    template.hasResourceProperties(
        "AWS::Logs::LogGroup",
        Match.objectLike(
            Map.of("LogGroupName", "/aws/lambda/protomolt-test-intake", "RetentionInDays", 14)));
  }

  @Test
  void propsRejectSharedHandlerSelectionAndBadSizes() {
    Code code = Code.fromAsset(TestEnvironments.PLACEHOLDER_LAMBDA);
    assertThatThrownBy(
            () ->
                new PipelineFunctions.Props(
                    "p",
                    code,
                    network.vpc(),
                    network.appSubnets(),
                    1024,
                    Map.of(),
                    60,
                    RetentionDays.ONE_DAY,
                    Map.of("QUARKUS_LAMBDA_HANDLER", "intake")))
        .hasMessageContaining("QUARKUS_LAMBDA_HANDLER");
    assertThatThrownBy(
            () ->
                new PipelineFunctions.Props(
                    "p",
                    code,
                    network.vpc(),
                    network.appSubnets(),
                    256,
                    Map.of(),
                    60,
                    RetentionDays.ONE_DAY,
                    Map.of()))
        .hasMessageContaining("functions.memoryMb");
    assertThatThrownBy(
            () ->
                new PipelineFunctions.Props(
                    "p",
                    code,
                    network.vpc(),
                    network.appSubnets(),
                    1024,
                    Map.of(),
                    901,
                    RetentionDays.ONE_DAY,
                    Map.of()))
        .hasMessageContaining("functions.timeoutSeconds");
  }
}
