package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.RetentionDays;

class ProvisioningTest {

  private static final String FINGERPRINT = "ab".repeat(32);
  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    new Provisioning(
        stack,
        "Provisioning",
        new Provisioning.Props(
            Function.fromFunctionArn(
                stack,
                "Migrate",
                "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-migrate:live"),
            FINGERPRINT,
            List.of(
                new Messaging.TopicSpec("storage-purge", 3),
                new Messaging.TopicSpec("pipestream.module.parser", 3)),
            RetentionDays.ONE_WEEK));
    template = Template.fromStack(stack);
  }

  @Test
  void schemaMigrationRerunsWhenTheMigrationsChange() {
    template.hasResourceProperties(
        "Custom::ProtoMoltSchemaMigration",
        Match.objectLike(
            Map.of(
                "operation", Provisioning.MIGRATE_SCHEMA, "migrationsFingerprint", FINGERPRINT)));
  }

  @Test
  void topicsAreEnsuredByTheMigrateFunction() {
    template.hasResourceProperties(
        "Custom::ProtoMoltKafkaTopics",
        Match.objectLike(
            Map.of(
                "operation",
                Provisioning.ENSURE_TOPICS,
                "topics",
                List.of(
                    Map.of("name", "storage-purge", "partitions", 3),
                    Map.of("name", "pipestream.module.parser", "partitions", 3)))));
  }

  @Test
  void theProviderInvokesOnlyTheMigrateAlias() {
    template.hasResourceProperties(
        "AWS::IAM::Policy",
        Match.objectLike(
            Map.of(
                "PolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        Match.arrayWith(
                            List.of(
                                Match.objectLike(
                                    Map.of(
                                        "Action",
                                        "lambda:InvokeFunction",
                                        "Resource",
                                        Match.arrayWith(
                                            List.of(
                                                "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-migrate:live")))))))))));
  }

  @Test
  void propsRejectADuplicateTopicOrABadFingerprint() {
    var migrate =
        Function.fromFunctionArn(
            TestEnvironments.emptyStack(), "M", "arn:aws:lambda:eu-west-1:123456789012:function:m");
    assertThatThrownBy(
            () ->
                new Provisioning.Props(
                    migrate,
                    "nope",
                    List.of(new Messaging.TopicSpec("a", 1)),
                    RetentionDays.ONE_DAY))
        .hasMessageContaining("migrationsFingerprint");
    assertThatThrownBy(
            () ->
                new Provisioning.Props(
                    migrate,
                    FINGERPRINT,
                    List.of(new Messaging.TopicSpec("a", 1), new Messaging.TopicSpec("a", 2)),
                    RetentionDays.ONE_DAY))
        .hasMessageContaining("topic names must be unique");
  }
}
