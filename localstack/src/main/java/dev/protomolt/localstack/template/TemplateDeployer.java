package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.api.FunctionConfiguration;
import dev.protomolt.localstack.lb.TlsFront;
import dev.protomolt.localstack.s3.S3NotificationRule;
import dev.protomolt.localstack.schedule.LocalScheduler;
import dev.protomolt.localstack.schedule.ScheduleExpression;
import dev.protomolt.names.PlatformVariable;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.SfnException;
import software.amazon.awssdk.services.sfn.model.StateMachineAlreadyExistsException;

/**
 * Deploys a CloudFormation template onto a running {@link LocalCloud}, the way SAM CLI runs one:
 * the whole template is checked first ({@link TemplatePlanner}), then buckets, tables and topics
 * are created, functions registered, the migration custom resource run, state machines created,
 * and the event sources, schedules and tasks started. A failure part-way stops what was started.
 */
public final class TemplateDeployer {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TemplateDeployer() {}

  /**
   * The environment the local runtime gives every function and task on top of the template's:
   * the standard SDK endpoint variables pointing at the local cloud, the region, and the local
   * broker as an explicit plaintext bootstrap, which the code prefers over the stack's MSK cluster
   * ARN (decision 1505: no local MSK API or SASL/IAM listener).
   */
  public static Map<String, String> runtimeEnvironment(LocalCloudEndpoints ep) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("AWS_REGION", ep.region());
    env.put("AWS_DEFAULT_REGION", ep.region());
    env.put("AWS_ENDPOINT_URL_S3", ep.s3().toString());
    env.put("AWS_ENDPOINT_URL_DYNAMODB", ep.dynamoDb().toString());
    ep.stepFunctions().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_SFN", uri.toString()));
    env.put(PlatformVariable.KAFKA_BOOTSTRAP.key(), ep.kafkaBootstrapServers());
    // The local STS shares the AWS API port with Lambda's API: the gateway verifies callers there.
    ep.lambda().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_STS", uri.toString()));
    // So does the local KMS: the data keys of right-to-be-forgotten documents (decision 1751).
    ep.lambda().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_KMS", uri.toString()));
    // Every function and task exports its spans to the local collector (decision 1794).
    ep.traces().ifPresent(uri -> env.put(PlatformVariable.OTLP_ENDPOINT.key(), uri.toString()));
    // And the console API reads them back through X-Ray's API, which the collector answers
    // (decision 1830).
    ep.traces().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_XRAY", uri.toString()));
    return env;
  }

  /** Where the stand-ins of the managed database listen: the embedded PostgreSQL. */
  public static LocalServices services(LocalCloudEndpoints ep) {
    // jdbc:postgresql://host:port/db
    URI uri = URI.create(ep.postgresJdbcUrl().substring("jdbc:".length()));
    return new LocalServices(uri.getHost(), uri.getPort());
  }

  /** Plans {@code template} against {@code cloud}; nothing is started. */
  public static TemplatePlan plan(
      CloudFormationTemplate template,
      String stackName,
      LocalCloud cloud,
      FunctionRuntime functions,
      ContainerRuntime containers) {
    LocalCloudEndpoints ep = cloud.endpoints();
    return TemplatePlanner.plan(
        template,
        new StackContext(stackName, ep.region(), LocalCloud.ACCOUNT_ID),
        services(ep),
        runtimeEnvironment(ep),
        functions,
        containers);
  }

  /**
   * Deploys {@code plan}, its TLS listeners on free loopback ports; the returned stack stops what
   * it started when closed.
   */
  public static DeployedStack deploy(
      TemplatePlan plan, LocalCloud cloud, FunctionRuntime functions, ContainerRuntime containers) {
    return deploy(plan, cloud, functions, containers, 0);
  }

  /**
   * Deploys {@code plan}; its (first) TLS listener's front listens on loopback {@code
   * tlsFrontPort} (0: a free one) instead of the listener's port (443 in the stack), which one
   * machine running several local clouds could not share. Further listeners get free ports.
   */
  public static DeployedStack deploy(
      TemplatePlan plan,
      LocalCloud cloud,
      FunctionRuntime functions,
      ContainerRuntime containers,
      int tlsFrontPort) {
    LocalCloudEndpoints ep = cloud.endpoints();
    Deque<AutoCloseable> started = new ArrayDeque<>();
    List<DeployedStack.TlsListener> listeners = new ArrayList<>();
    LocalScheduler scheduler = new LocalScheduler(cloud.lambdas(), Clock.systemUTC());
    started.push(scheduler);
    try {
      plan.buckets().forEach(b -> cloud.createBucket(b.name()));
      createTables(plan, ep);
      plan.kmsKeys().forEach(cloud.kms()::ensureKey);
      createTopics(plan, ep);
      for (DeployedFunction fn : plan.functions()) {
        BoundedFunction bounded =
            new BoundedFunction(
                fn.functionName(), functions.start(fn), fn.timeout(), fn.reservedConcurrency());
        started.push(bounded);
        cloud.lambdas().register(fn.functionName(), bounded);
        // Its calls are checked against its role's policies, keyed by its own access key.
        cloud
            .iam()
            .register(
                fn.credentials().accessKeyId(),
                fn.credentials().secretAccessKey(),
                new IamPrincipal(fn.functionName(), fn.roleArn(), fn.policies()));
        started.push(() -> cloud.iam().remove(fn.credentials().accessKeyId()));
        // The AWS CLI lists and invokes it through the local Lambda API, as in AWS.
        cloud
            .lambdaApi()
            .register(
                new FunctionConfiguration(
                    fn.functionName(),
                    fn.arn(),
                    fn.handlerProperty(),
                    fn.runtime(),
                    (int) fn.timeout().toSeconds(),
                    fn.memoryMb(),
                    fn.templateEnvironment(),
                    fn.roleArn(),
                    fn.description(),
                    aliases(plan, fn)),
                payload -> cloud.lambdas().invoke(fn.functionName(), payload));
        started.push(() -> cloud.lambdaApi().remove(fn.functionName()));
      }
      for (TemplatePlan.Migration m : plan.migrations()) {
        runCustomResource(plan, cloud, m);
      }
      createStateMachines(plan, ep);
      for (TemplatePlan.Notification n : plan.notifications()) {
        cloud.addS3Notification(
            new S3NotificationRule(n.bucket(), n.prefix(), n.suffix(), n.functionName()));
      }
      for (TemplatePlan.KafkaTrigger t : plan.kafkaTriggers()) {
        if (t.enabled()) {
          started.push(
              cloud.addMskEventSource(
                  new MskEventSourceMapping(
                      plan.function(t.functionName()).functionName(),
                      t.topics(),
                      t.consumerGroupId(),
                      t.batchSize(),
                      t.batchingWindow())));
        }
      }
      for (TemplatePlan.Schedule s : plan.schedules()) {
        String function = plan.function(s.functionName()).functionName();
        String ruleArn = plan.stack().arn("events", "rule/" + s.name());
        scheduler.add(
            new LocalScheduler.Schedule(
                s.name(),
                ScheduleExpression.parse(s.expression()),
                function,
                at -> s.input() != null ? s.input() : scheduledEvent(plan.stack(), ruleArn, at)));
      }
      for (DeployedContainer c : plan.containers()) {
        cloud
            .iam()
            .register(
                c.credentials().accessKeyId(),
                c.credentials().secretAccessKey(),
                new IamPrincipal(c.family(), c.taskRoleArn(), c.policies()));
        started.push(() -> cloud.iam().remove(c.credentials().accessKeyId()));
        started.push(containers.start(c));
      }
      for (TemplatePlan.Listener l : plan.listeners()) {
        DeployedContainer target = target(plan, l);
        int targetPort = containers.hostPort(target, l.containerPort());
        TlsFront front =
            TlsFront.start(
                listeners.isEmpty() ? tlsFrontPort : 0,
                cloud.certificates(),
                () -> targetPort,
                l.logicalId());
        started.push(front);
        listeners.add(
            new DeployedStack.TlsListener(
                l.logicalId(), front.port(), targetPort, cloud.certificates().caFile()));
      }
      return new DeployedStack(plan, cloud.lambdas(), scheduler, started, listeners);
    } catch (RuntimeException e) {
      new DeployedStack(plan, cloud.lambdas(), scheduler, started, listeners).closeQuietly(e);
      throw e;
    }
  }

  private static DeployedContainer target(TemplatePlan plan, TemplatePlan.Listener l) {
    return plan.containers().stream()
        .filter(
            c ->
                c.logicalId().equals(l.taskLogicalId())
                    && c.containerName().equals(l.containerName()))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    l.logicalId()
                        + ": its target container "
                        + l.containerName()
                        + " of "
                        + l.taskLogicalId()
                        + " is not deployed"));
  }

  /** The function's aliases and the version each points at, from the template's qualified ARNs. */
  private static Map<String, String> aliases(TemplatePlan plan, DeployedFunction fn) {
    Map<String, String> aliases = new LinkedHashMap<>();
    for (Map.Entry<String, String> q : plan.qualifiedArns().entrySet()) {
      String qualifier = q.getKey().substring(q.getKey().lastIndexOf(':') + 1);
      if (q.getValue().equals(fn.functionName()) && !qualifier.matches("\\d+")) {
        aliases.put(qualifier, "1");
      }
    }
    return aliases;
  }

  private static void runCustomResource(
      TemplatePlan plan, LocalCloud cloud, TemplatePlan.Migration m) {
    // The Create request CloudFormation sends a custom resource, handed to its onEvent function.
    ObjectNode event = JSON.createObjectNode();
    event.put("RequestType", "Create");
    event.put("RequestId", UUID.randomUUID().toString());
    event.put(
        "StackId",
        plan.stack().arn("cloudformation", "stack/" + plan.stack().stackName() + "/local"));
    event.put("LogicalResourceId", m.logicalId());
    event.put("ResourceType", m.type());
    event.put("ServiceToken", m.properties().path("ServiceToken").asText());
    event.set("ResourceProperties", m.properties());
    String function = plan.function(m.functionName()).functionName();
    LambdaResult result = cloud.lambdas().invoke(function, event.toString());
    if (result instanceof LambdaResult.Failure f) {
      throw new IllegalStateException(
          m.logicalId()
              + " ("
              + m.type()
              + "): its onEvent function "
              + function
              + " failed: "
              + f.errorType()
              + ": "
              + f.errorMessage());
    }
  }

  private static String scheduledEvent(StackContext stack, String ruleArn, Instant at) {
    ObjectNode e = JSON.createObjectNode();
    e.put("version", "0");
    e.put("id", UUID.randomUUID().toString());
    e.put("detail-type", "Scheduled Event");
    e.put("source", "aws.events");
    e.put("account", stack.accountId());
    e.put("time", at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    e.put("region", stack.region());
    e.putArray("resources").add(ruleArn);
    e.putObject("detail");
    return e.toString();
  }

  /**
   * Creates the plan's DynamoDB tables on the local DynamoDB, leaving existing ones as they are;
   * {@link #deploy} does this too.
   */
  public static void createTables(TemplatePlan plan, LocalCloudEndpoints ep) {
    if (plan.tables().isEmpty()) {
      return;
    }
    try (DynamoDbClient dynamo =
        DynamoDbClient.builder()
            .endpointOverride(ep.dynamoDb())
            .region(Region.of(ep.region()))
            .credentialsProvider(credentials(ep))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      for (TemplatePlan.Table t : plan.tables()) {
        List<KeySchemaElement> keys = new ArrayList<>();
        List<AttributeDefinition> attributes = new ArrayList<>();
        for (TemplatePlan.KeyElement k : t.keySchema()) {
          keys.add(
              KeySchemaElement.builder().attributeName(k.attribute()).keyType(k.keyType()).build());
          attributes.add(
              AttributeDefinition.builder()
                  .attributeName(k.attribute())
                  .attributeType(t.attributeTypes().get(k.attribute()))
                  .build());
        }
        try {
          dynamo.createTable(
              b ->
                  b.tableName(t.name())
                      .keySchema(keys)
                      .attributeDefinitions(attributes)
                      .billingMode(BillingMode.PAY_PER_REQUEST));
        } catch (ResourceInUseException exists) {
          // Deployed before into the same data directory: the table and its items stay.
        }
      }
    }
  }

  /**
   * Creates the topics of the plan's Kafka topics custom resources on the local broker, leaving
   * existing ones as they are; {@link #deploy} does this too.
   */
  public static void createTopics(TemplatePlan plan, LocalCloudEndpoints ep) {
    if (plan.topics().isEmpty()) {
      return;
    }
    try (Admin kafka =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ep.kafkaBootstrapServers()))) {
      for (TemplatePlan.Topic topic : plan.topics()) {
        try {
          kafka
              .createTopics(List.of(new NewTopic(topic.name(), topic.partitions(), (short) 1)))
              .all()
              .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException(
                topic.logicalId() + ": cannot create topic " + topic.name() + ": " + e.getCause(),
                e.getCause());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the template's topics", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not create the template's topics within 30 s", e);
    }
  }

  private static void createStateMachines(TemplatePlan plan, LocalCloudEndpoints ep) {
    if (plan.stateMachines().isEmpty()) {
      return;
    }
    URI endpoint =
        ep.stepFunctions()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        plan.stateMachines().get(0).logicalId()
                            + ": the template has state machines but the local cloud started no"
                            + " Step Functions runtime"));
    try (SfnClient sfn =
        SfnClient.builder()
            .endpointOverride(endpoint)
            .region(Region.of(ep.region()))
            .credentialsProvider(credentials(ep))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      for (TemplatePlan.StateMachine m : plan.stateMachines()) {
        try {
          sfn.createStateMachine(
              b -> b.name(m.name()).definition(m.definition()).roleArn(m.roleArn()));
        } catch (StateMachineAlreadyExistsException exists) {
          // Deployed before into the same data directory.
        } catch (SfnException e) {
          throw new IllegalStateException(
              m.logicalId()
                  + " (AWS::StepFunctions::StateMachine): the local runtime refused it: "
                  + e.awsErrorDetails().errorMessage(),
              e);
        }
      }
    }
  }

  private static StaticCredentialsProvider credentials(LocalCloudEndpoints ep) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey()));
  }
}
