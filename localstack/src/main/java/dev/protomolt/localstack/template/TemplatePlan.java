package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything a template deploys locally, checked and resolved, in template order; nothing has been
 * started yet. {@link TemplateDeployer} carries it out.
 */
public record TemplatePlan(
    StackContext stack,
    List<DeployedFunction> functions,
    Map<String, String> qualifiedArns,
    List<Bucket> buckets,
    List<Table> tables,
    List<String> kmsKeys,
    List<Topic> topics,
    List<Notification> notifications,
    List<KafkaTrigger> kafkaTriggers,
    List<Schedule> schedules,
    List<StateMachine> stateMachines,
    List<Migration> migrations,
    List<DeployedContainer> containers,
    List<Listener> listeners,
    List<IamResource> iam,
    Map<String, LocalRole> roles,
    Map<String, String> outputs) {

  /** An S3 bucket and its lifecycle rules (recorded; the local S3 does not expire objects). */
  public record Bucket(String logicalId, String name, JsonNode lifecycleRules) {}

  /** A DynamoDB table: key schema, attribute types, TTL attribute (null when none). */
  public record Table(
      String logicalId,
      String name,
      List<KeyElement> keySchema,
      Map<String, String> attributeTypes,
      String ttlAttribute) {}

  /** One element of a key schema: attribute name and HASH or RANGE. */
  public record KeyElement(String attribute, String keyType) {}

  /** A Kafka topic the topics custom resource creates. */
  public record Topic(String logicalId, String name, int partitions) {}

  /** An S3 event notification rule invoking a function for objects created under a prefix. */
  public record Notification(
      String logicalId, String bucket, String prefix, String suffix, String functionName) {}

  /** An MSK event-source mapping. */
  public record KafkaTrigger(
      String logicalId,
      String functionName,
      List<String> topics,
      String consumerGroupId,
      int batchSize,
      Duration batchingWindow,
      String startingPosition,
      boolean enabled) {}

  /** A schedule (Scheduler schedule or EventBridge rule with a schedule expression). */
  public record Schedule(
      String logicalId, String name, String expression, String functionName, String input) {}

  /** A state machine of the template. */
  public record StateMachine(String logicalId, String name, String definition, String roleArn) {}

  /** A migration custom resource: the function its provider hands the Create event to. */
  public record Migration(
      String logicalId, String type, String functionName, JsonNode properties) {}

  /**
   * A load balancer's TLS listener and where its target group sends connections: the container
   * {@code containerName} of the task definition {@code taskLogicalId}, on {@code containerPort}.
   */
  public record Listener(
      String logicalId, int port, String taskLogicalId, String containerName, int containerPort) {}

  /** An IAM resource, recorded with its resolved properties for later policy checks. */
  public record IamResource(String logicalId, String type, JsonNode properties) {}

  /**
   * The resolved value of the template's output {@code name}.
   *
   * @throws IllegalArgumentException when the template has no such output
   */
  public String output(String name) {
    String value = outputs.get(name);
    if (value == null) {
      throw new IllegalArgumentException(
          "the template has no output '" + name + "' (it has " + outputs.keySet() + ")");
    }
    return value;
  }

  /** The function a name, a function ARN or an alias or version ARN invokes. */
  public DeployedFunction function(String nameOrArn) {
    String name = ResourceIdentity.functionName(qualifiedArns.getOrDefault(nameOrArn, nameOrArn));
    return functions.stream()
        .filter(f -> f.functionName().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no deployed function " + nameOrArn));
  }
}
