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
import software.amazon.awscdk.services.lambda.IFunction;

class AlertingTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    new Alerting(
        stack,
        "Alarms",
        new Alerting.Props(
            "protomolt-test",
            "test",
            List.of("ops@example.com", "oncall@example.com"),
            3,
            fn(stack, "dlq"),
            fn(stack, "purge"),
            "arn:aws:states:eu-west-1:123456789012:stateMachine:protomolt-test-"));
    template = Template.fromStack(stack);
  }

  private static IFunction fn(Stack stack, String name) {
    return Function.fromFunctionArn(
        stack,
        name,
        "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-test-" + name + ":live");
  }

  @Test
  void oneTopicPerEnvironmentWithTheConfiguredTargets() {
    template.hasResourceProperties(
        "AWS::SNS::Topic", Match.objectLike(Map.of("TopicName", "protomolt-test-alarms")));
    template.resourceCountIs("AWS::SNS::Subscription", 2);
    template.hasResourceProperties(
        "AWS::SNS::Subscription",
        Match.objectLike(Map.of("Protocol", "email", "Endpoint", "oncall@example.com")));
  }

  @Test
  void deadLettersAlarmAtTheConfiguredThresholdOnTheDlqFunctionsMetric() {
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "Namespace",
                Alerting.NAMESPACE,
                "MetricName",
                Alerting.DEAD_LETTERS_METRIC,
                "Dimensions",
                List.of(Map.of("Name", "Environment", "Value", "test")),
                "Threshold",
                3,
                "ComparisonOperator",
                "GreaterThanOrEqualToThreshold",
                "TreatMissingData",
                "notBreaching",
                "AlarmActions",
                List.of(
                    Match.objectLike(Map.of("Ref", Match.stringLikeRegexp("AlarmsTopic.*")))))));
  }

  @Test
  void purgeFailuresAndFunctionErrorsAlarm() {
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(Map.of("MetricName", Alerting.PURGE_FAILURES_METRIC, "Threshold", 1)));
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "Namespace",
                "AWS/Lambda",
                "MetricName",
                "Errors",
                "Dimensions",
                Match.arrayWith(
                    List.of(Map.of("Name", "FunctionName", "Value", "protomolt-test-purge"))))));
    template.resourceCountIs("AWS::CloudWatch::Alarm", 8);
  }

  @Test
  void hopStateAndHistoryAlarmAt80PercentOfStepFunctionsLimits() {
    for (Map<String, Object> alarm :
        List.<Map<String, Object>>of(
            Map.of("MetricName", "HopPayloadBytes", "Statistic", "Maximum", "Threshold", 209_715),
            Map.of(
                "MetricName", "HopHistoryEvents", "Statistic", "Maximum", "Threshold", 20_000))) {
      template.hasResourceProperties(
          "AWS::CloudWatch::Alarm",
          Match.objectLike(
              Map.of(
                  "Namespace",
                  "ProtoMolt",
                  "MetricName",
                  alarm.get("MetricName"),
                  "Statistic",
                  alarm.get("Statistic"),
                  "Threshold",
                  alarm.get("Threshold"),
                  "Dimensions",
                  List.of(Map.of("Name", "Environment", "Value", "test")))));
    }
  }

  @Test
  void aModuleQueueWhoseOldestRecordPassesHalfAnHourAlarms() {
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "Namespace",
                "ProtoMolt",
                "MetricName",
                "ModuleOldestQueuedAge",
                "Dimensions",
                List.of(Map.of("Name", "Environment", "Value", "test")),
                "Statistic",
                "Maximum",
                "Threshold",
                1800,
                "TreatMissingData",
                "notBreaching")));
  }

  @Test
  void failedExecutionsOfThisEnvironmentsStateMachinesAreCaught() {
    template.hasResourceProperties(
        "AWS::Events::Rule",
        Match.objectLike(
            Map.of(
                "EventPattern",
                Map.of(
                    "source", List.of("aws.states"),
                    "detail-type", List.of("Step Functions Execution Status Change"),
                    "detail",
                        Map.of(
                            "status", List.of("FAILED", "TIMED_OUT", "ABORTED"),
                            "stateMachineArn",
                                List.of(
                                    Map.of(
                                        "prefix",
                                        "arn:aws:states:eu-west-1:123456789012:stateMachine:protomolt-test-")))))));
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(Map.of("Namespace", "AWS/Events", "MetricName", "MatchedEvents")));
  }

  @Test
  void anAlarmWithoutTargetsIsRejected() {
    assertThatThrownBy(() -> new Alerting.Props("p", "e", List.of(), 1, null, null, null))
        .hasMessageContaining("alarms.emailTargets");
  }
}
