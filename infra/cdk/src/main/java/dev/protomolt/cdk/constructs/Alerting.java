package dev.protomolt.cdk.constructs;

import dev.protomolt.names.PlatformMetric;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.events.EventField;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.targets.SnsTopic;
import software.amazon.awscdk.services.events.targets.SnsTopicProps;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.constructs.Construct;

/**
 * Alarms of one environment, all notifying one SNS topic whose subscribers come from configuration:
 * <ul>
 *   <li>dead letters: {@code DeadLettersPublished}, which the DLQ function emits (embedded metric
 *       format, namespace {@code ProtoMolt}, dimension {@code Environment}) for every message it
 *       publishes to a {@code pipestream.*.dlq} topic, and errors of the DLQ function itself;
 *   <li>failed executions: an EventBridge rule matches FAILED, TIMED_OUT and ABORTED executions of
 *       this environment's state machines (they are created at run time, so no per-machine
 *       metric exists at deploy time); each match is sent to the topic with its execution ARN, and
 *       an alarm on the rule's match count gives a console-visible state;
 *   <li>purge failures: {@code PurgeFailures} emitted by the purge function for keys it
 *       could not delete, and errors of the purge function.
 * </ul>
 */
public final class Alerting extends Construct {

  // The names are the code's own (PlatformMetric), so an alarm cannot read a metric nobody emits.
  public static final String NAMESPACE = PlatformMetric.NAMESPACE;
  public static final String DEAD_LETTERS_METRIC =
      PlatformMetric.DEAD_LETTERS_PUBLISHED.metricName();

  /** The oldest queued record's age, in seconds, at which the queue alarm fires. */
  public static final int OLDEST_QUEUED_AGE_ALARM_SECONDS = 1800;

  public static final String PURGE_FAILURES_METRIC = PlatformMetric.PURGE_FAILURES.metricName();

  /** Validated settings. */
  public record Props(
      String namePrefix,
      String environmentName,
      List<String> emailTargets,
      int deadLetterThreshold,
      IFunction dlq,
      IFunction purge,
      String stateMachineArnPrefix) {
    public Props {
      if (emailTargets == null || emailTargets.isEmpty()) {
        throw new IllegalArgumentException("alarms.emailTargets: at least one target is required");
      }
      if (deadLetterThreshold < 1) {
        throw new IllegalArgumentException(
            "alarms.deadLetterThreshold: must be at least 1 (got " + deadLetterThreshold + ")");
      }
      if (dlq == null || purge == null || stateMachineArnPrefix == null) {
        throw new IllegalArgumentException(
            "alarms: the DLQ and purge functions and the state"
                + " machine ARN prefix are required");
      }
      emailTargets = List.copyOf(emailTargets);
    }
  }

  private final Topic topic;

  public Alerting(Construct scope, String id, Props props) {
    super(scope, id);
    this.topic =
        Topic.Builder.create(this, "Topic")
            .topicName(props.namePrefix() + "-alarms")
            .displayName("ProtoMolt " + props.environmentName() + " alarms")
            .enforceSsl(true)
            .build();
    props.emailTargets().forEach(email -> topic.addSubscription(new EmailSubscription(email)));

    Map<String, String> env = Map.of(PlatformMetric.ENVIRONMENT_DIMENSION, props.environmentName());
    alarm(
        "DeadLetters",
        "Documents were dead-lettered to a pipestream.*.dlq topic",
        custom(DEAD_LETTERS_METRIC, env),
        props.deadLetterThreshold());
    alarm(
        "DlqFunctionErrors",
        "The DLQ function failed: dead letters may be lost",
        props.dlq().metricErrors(fiveMinuteSum()),
        1);
    alarm(
        "PurgeFailures",
        "Purge could not delete stored parts",
        custom(PURGE_FAILURES_METRIC, env),
        1);
    alarm(
        "PurgeFunctionErrors",
        "The purge function failed a batch",
        props.purge().metricErrors(fiveMinuteSum()),
        1);

    // A hop's state or an execution's history near Step Functions' hard limits fails documents
    // outright once crossed; at 80 % there is still time to slim the graph (decision 1792).
    alarm(
        "HopPayloadNearLimit",
        "A hop handed Step Functions a state above 80% of the 256 KB limit",
        maximum(PlatformMetric.HOP_PAYLOAD_BYTES.metricName(), env),
        PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES * 4 / 5);
    alarm(
        "HopHistoryNearLimit",
        "An execution's history passed 80% of the 25,000-event limit",
        maximum(PlatformMetric.HOP_HISTORY_EVENTS.metricName(), env),
        PlatformMetric.HISTORY_EVENT_LIMIT * 4 / 5);

    // Queued work waits safely up to its time to live (decision 1650), but a record half an hour
    // old means the module service is not keeping up or not running at all (decision 1654).
    alarm(
        "ModuleQueueOldestAge",
        "A module service's oldest queued record is older than 30 minutes",
        maximum(PlatformMetric.MODULE_OLDEST_QUEUED_AGE.metricName(), env),
        OLDEST_QUEUED_AGE_ALARM_SECONDS);

    Rule failedExecutions =
        Rule.Builder.create(this, "FailedExecutionsRule")
            .description(
                "Failed, timed-out or aborted executions of " + props.namePrefix() + " graphs")
            .eventPattern(
                EventPattern.builder()
                    .source(List.of("aws.states"))
                    .detailType(List.of("Step Functions Execution Status Change"))
                    .detail(
                        Map.of(
                            "status", List.of("FAILED", "TIMED_OUT", "ABORTED"),
                            "stateMachineArn",
                                List.of(Map.of("prefix", props.stateMachineArnPrefix()))))
                    .build())
            .build();
    failedExecutions.addTarget(
        new SnsTopic(
            topic,
            SnsTopicProps.builder()
                .message(
                    RuleTargetInput.fromText(
                        "ProtoMolt "
                            + props.environmentName()
                            + ": execution "
                            + EventField.fromPath("$.detail.executionArn")
                            + " ended "
                            + EventField.fromPath("$.detail.status")))
                .build()));
    alarm(
        "FailedExecutions",
        "Graph executions failed, timed out or were aborted",
        Metric.Builder.create()
            .namespace("AWS/Events")
            .metricName("MatchedEvents")
            .dimensionsMap(Map.of("RuleName", failedExecutions.getRuleName()))
            .statistic("Sum")
            .period(Duration.minutes(5))
            .build(),
        1);
  }

  private static MetricOptions fiveMinuteSum() {
    return MetricOptions.builder().statistic("Sum").period(Duration.minutes(5)).build();
  }

  private static Metric custom(String name, Map<String, String> dimensions) {
    return Metric.Builder.create()
        .namespace(NAMESPACE)
        .metricName(name)
        .dimensionsMap(dimensions)
        .statistic("Sum")
        .period(Duration.minutes(5))
        .build();
  }

  private static Metric maximum(String name, Map<String, String> dimensions) {
    return Metric.Builder.create()
        .namespace(NAMESPACE)
        .metricName(name)
        .dimensionsMap(dimensions)
        .statistic("Maximum")
        .period(Duration.minutes(5))
        .build();
  }

  private void alarm(String id, String description, IMetric metric, int threshold) {
    Alarm alarm =
        Alarm.Builder.create(this, id)
            .alarmDescription(description)
            .metric(metric)
            .threshold(threshold)
            .evaluationPeriods(1)
            .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
            // No data means nothing happened: no dead letters, no failures.
            .treatMissingData(TreatMissingData.NOT_BREACHING)
            .build();
    alarm.addAlarmAction(new SnsAction(topic));
  }

  public Topic topic() {
    return topic;
  }
}
