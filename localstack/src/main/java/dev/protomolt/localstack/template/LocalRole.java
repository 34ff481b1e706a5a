package dev.protomolt.localstack.template;

/** What the local cloud does with a resource of a given type when it deploys a template. */
public enum LocalRole {
  /** Runs in-process through the function runtime, registered on the local Lambda runner. */
  FUNCTION,
  /** A published version: invocations of its ARN reach the function it versions. */
  FUNCTION_VERSION,
  /** An alias: invocations of its ARN reach the function it points at. */
  FUNCTION_ALIAS,
  /** A Kafka (MSK) event-source mapping, run by the local MSK poller. */
  EVENT_SOURCE_MAPPING,
  /** An S3 bucket on the local S3, with its lifecycle rules recorded. */
  BUCKET,
  /** CDK's bucket-notifications custom resource: rules on the local S3 notifier. */
  BUCKET_NOTIFICATIONS,
  /** A DynamoDB table on the local DynamoDB: key schema, TTL attribute. */
  TABLE,
  /** A KMS key in the local KMS, created under its deterministic key id (decision 1751). */
  KMS_KEY,
  /** An EventBridge Scheduler schedule on the local clock, triggerable on demand. */
  SCHEDULE,
  /** An EventBridge rule: a schedule expression runs on the local clock; a pattern is recorded. */
  EVENT_RULE,
  /** A Step Functions state machine on the local runtime. */
  STATE_MACHINE,
  /** ProtoMolt's Kafka topics custom resource: the topics it lists, on the local broker. */
  KAFKA_TOPICS,
  /** ProtoMolt's schema migration custom resource: its provider's onEvent function, invoked. */
  SCHEMA_MIGRATION,
  /** An ECS task definition: its container environment, run in-process by the container runtime. */
  CONTAINER_TASK,
  /**
   * A load balancer's TLS listener: a loopback TLS front with the local cloud's certificate,
   * forwarding to the task its target group's service runs (decision 1745).
   */
  TLS_LISTENER,
  /** IAM: recorded so that calls can later be checked against the policies. */
  IAM,
  /** An Aurora PostgreSQL cluster, instance or proxy: the local PostgreSQL answers for it. */
  LOCAL_POSTGRES,
  /** An MSK cluster: the local Kafka broker answers for it. */
  LOCAL_KAFKA,
  /** Nothing to run locally (networking, load balancing, alarms, logs, notifications, scaling). */
  NOTHING
}
