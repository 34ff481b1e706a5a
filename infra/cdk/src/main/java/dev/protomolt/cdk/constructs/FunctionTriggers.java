package dev.protomolt.cdk.constructs;

import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.EventSourceMapping;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Permission;
import software.amazon.awscdk.services.lambda.StartingPosition;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.scheduler.targets.ScheduleTargetBaseProps;
import software.constructs.Construct;
import software.constructs.IDependable;

/**
 * What starts the non-state-machine functions: the intake bucket's permission to invoke intake,
 * MSK event-source mappings (batched, one consumer group per function), and EventBridge Scheduler
 * schedules. Every trigger targets the function's published alias, never {@code $LATEST}.
 *
 * <p>The stack puts no notification rule on the intake bucket. A bucket-wide rule would also fire
 * for the store's own intake copies under {@code _intake-copies/}; S3 filters match a prefix and
 * cannot exclude one, and accounts exist only at run time, so account provisioning adds one rule
 * per account prefix {@code <account>/} (decision 0660). The stack only lets S3, for this bucket in
 * this AWS account, invoke the intake alias, which S3 checks when a rule is added.
 */
public final class FunctionTriggers extends Construct {

  /** One MSK event-source mapping: this function consumes this topic in this consumer group. */
  public record KafkaTrigger(IFunction function, String topic, String consumerGroup) {
    public KafkaTrigger {
      if (function == null
          || topic == null
          || topic.isBlank()
          || consumerGroup == null
          || consumerGroup.isBlank()) {
        throw new IllegalArgumentException(
            "kafka trigger: function, topic and consumer group are required");
      }
    }
  }

  /** One schedule: invoke {@code function} on an EventBridge Scheduler expression. */
  public record ScheduledTrigger(String id, IFunction function, String expression) {
    public ScheduledTrigger {
      if (id == null
          || function == null
          || expression == null
          || !expression.matches("(rate|cron)\\(.+\\)")) {
        throw new IllegalArgumentException(
            "schedule "
                + id
                + ": expression must be rate(...) or"
                + " cron(...) (got "
                + expression
                + ")");
      }
    }
  }

  /** Validated settings. {@code after} are resources the mappings wait for (the topics). */
  public record Props(
      IBucket intakeBucket,
      IFunction intake,
      String kafkaClusterArn,
      int kafkaBatchSize,
      List<KafkaTrigger> kafka,
      List<ScheduledTrigger> schedules,
      List<IDependable> after) {
    public Props {
      if (intakeBucket == null || intake == null || kafkaClusterArn == null) {
        throw new IllegalArgumentException(
            "triggers: intake bucket, intake function and cluster are required");
      }
      if (kafkaBatchSize < 1 || kafkaBatchSize > 10000) {
        throw new IllegalArgumentException(
            "functions.kafkaBatchSize: 1 to 10000 (got " + kafkaBatchSize + ")");
      }
      kafka = List.copyOf(kafka);
      schedules = List.copyOf(schedules);
      after = after == null ? List.of() : List.copyOf(after);
    }
  }

  private static String mappingId(KafkaTrigger trigger) {
    StringBuilder id = new StringBuilder();
    for (String word : (trigger.consumerGroup() + "-" + trigger.topic()).split("[^A-Za-z0-9]+")) {
      if (!word.isEmpty()) {
        id.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
      }
    }
    return id.toString();
  }

  public FunctionTriggers(Construct scope, String id, Props props) {
    super(scope, id);
    props
        .intake()
        .addPermission(
            "IntakeBucketInvokes",
            Permission.builder()
                .principal(new ServicePrincipal("s3.amazonaws.com"))
                .action("lambda:InvokeFunction")
                .sourceArn(props.intakeBucket().getBucketArn())
                .sourceAccount(Stack.of(this).getAccount())
                .build());
    // Mappings are declared here rather than through addEventSource so that they can wait for
    // the topics custom resource; the consumer's IAM (connect, read, group) is granted per function
    // by the caller, scoped to the topic and group.
    for (KafkaTrigger trigger : props.kafka()) {
      EventSourceMapping.Builder.create(this, mappingId(trigger))
          .target(trigger.function())
          .eventSourceArn(props.kafkaClusterArn())
          .kafkaTopic(trigger.topic())
          .kafkaConsumerGroupId(trigger.consumerGroup())
          .startingPosition(StartingPosition.TRIM_HORIZON)
          .batchSize(props.kafkaBatchSize())
          .build();
    }
    for (IDependable dependency : props.after()) {
      getNode().addDependency(dependency);
    }
    for (ScheduledTrigger schedule : props.schedules()) {
      Schedule.Builder.create(this, schedule.id())
          .description("ProtoMolt " + schedule.id())
          .schedule(ScheduleExpression.expression(schedule.expression()))
          .target(new LambdaInvoke(schedule.function(), ScheduleTargetBaseProps.builder().build()))
          .build();
    }
  }
}
