package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.s3.Bucket;

class FunctionTriggersTest {

  private static final String CLUSTER =
      "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-test/0b5b1c2e-1111-2222-3333-444455556666-s1";
  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    new FunctionTriggers(
        stack,
        "Triggers",
        new FunctionTriggers.Props(
            Bucket.Builder.create(stack, "Intake").build(),
            fn(stack, "intake"),
            CLUSTER,
            250,
            List.of(
                new FunctionTriggers.KafkaTrigger(
                    fn(stack, "purge"), "storage-purge", "protomolt-test-purge")),
            List.of(
                new FunctionTriggers.ScheduledTrigger(
                    "Retention", fn(stack, "retention"), "cron(0 3 * * ? *)")),
            List.of()));
    template = Template.fromStack(stack);
  }

  /** A real function behind a {@code live} alias, as PipelineFunctions makes them. */
  private static IFunction fn(Stack stack, String name) {
    Function function =
        Function.Builder.create(stack, name)
            .functionName("protomolt-test-" + name)
            .runtime(Runtime.JAVA_25)
            .handler(PipelineFunctions.QUARKUS_HANDLER)
            .code(Code.fromAsset(TestEnvironments.PLACEHOLDER_LAMBDA))
            .build();
    return Alias.Builder.create(stack, name + "Live")
        .aliasName(PipelineFunctions.ALIAS)
        .version(function.getCurrentVersion())
        .build();
  }

  private static String rendered(String type, String property) {
    return template.findResources(type).values().stream()
        .map(r -> PolicyDocuments.render(((Map<?, ?>) r.get("Properties")).get(property)))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theStackAddsNoIntakeRuleButLetsTheIntakeBucketInvokeTheIntakeAlias() {
    // A bucket-wide rule would also fire for the store's own intake copies (decision 0660).
    template.resourceCountIs("Custom::S3BucketNotifications", 0);
    template.hasResourceProperties(
        "AWS::Lambda::Permission",
        Match.objectLike(
            Map.of(
                "Action",
                "lambda:InvokeFunction",
                "Principal",
                "s3.amazonaws.com",
                "FunctionName",
                Map.of("Ref", Match.stringLikeRegexp("intakeLive.*")),
                "SourceArn",
                Map.of("Fn::GetAtt", List.of(Match.stringLikeRegexp("Intake.*"), "Arn")),
                "SourceAccount",
                TestEnvironments.ACCOUNT)));
  }

  @Test
  void mskTriggersReadTheirTopicInTheirOwnGroupInBatches() {
    template.hasResourceProperties(
        "AWS::Lambda::EventSourceMapping",
        Match.objectLike(
            Map.of(
                "EventSourceArn",
                CLUSTER,
                "Topics",
                List.of("storage-purge"),
                "AmazonManagedKafkaEventSourceConfig",
                Map.of("ConsumerGroupId", "protomolt-test-purge"),
                "StartingPosition",
                "TRIM_HORIZON",
                "BatchSize",
                250)));
    // The mapping names the function qualified by the alias, so the published version runs.
    assertThat(rendered("AWS::Lambda::EventSourceMapping", "FunctionName"))
        .matches("\\$\\{select 6 of split ':' \\$\\{purgeLive[0-9A-F]{8}\\}\\}:live");
  }

  @Test
  void scheduledFunctionsRunOnTheirExpression() {
    template.hasResourceProperties(
        "AWS::Scheduler::Schedule",
        Match.objectLike(
            Map.of(
                "ScheduleExpression",
                "cron(0 3 * * ? *)",
                "Target",
                Match.objectLike(
                    Map.of("Arn", Map.of("Ref", Match.stringLikeRegexp("retentionLive.*")))))));
  }

  @Test
  void badSchedulesAndBatchSizesAreRejectedByName() {
    IFunction f =
        Function.fromFunctionArn(
            TestEnvironments.emptyStack(), "x", "arn:aws:lambda:eu-west-1:123456789012:function:x");
    assertThatThrownBy(() -> new FunctionTriggers.ScheduledTrigger("Reconciler", f, "every hour"))
        .hasMessageContaining("schedule Reconciler")
        .hasMessageContaining("rate(...) or cron(...)");
    assertThatThrownBy(() -> new FunctionTriggers.KafkaTrigger(f, "storage-purge", " "))
        .hasMessageContaining("consumer group");
  }
}
