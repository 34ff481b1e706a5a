package dev.protomolt.localstack.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.lambda.LambdaResult;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The small stack deployed onto a real local cloud: its bucket, table and topic exist, its
 * functions run behind their limits, its custom resource, event sources, notification, schedules
 * and task run, and a failure part-way stops what had started.
 */
class TemplateDeployerTest {

  @TempDir static Path data;
  private static LocalCloud cloud;

  @BeforeAll
  static void start() {
    cloud = LocalCloud.start(LocalCloudSettings.ephemeral(data.resolve("cloud")));
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  private static TemplatePlan plan(TestRuntimes runtimes) {
    return TemplateDeployer.plan(
        CloudFormationTemplate.parse(TemplatePlannerTest.smallStack()),
        "small",
        cloud,
        runtimes.functions,
        runtimes.containers);
  }

  @Test
  void theStackRunsOnTheLocalCloudAsTheTemplateSays() throws Exception {
    TestRuntimes runtimes = new TestRuntimes();
    TemplatePlan plan = plan(runtimes);
    LocalCloudEndpoints ep = cloud.endpoints();
    assertThat(plan.function("small-echo").environment())
        .containsEntry("AWS_ENDPOINT_URL_S3", ep.s3().toString())
        .containsEntry("AWS_ENDPOINT_URL_DYNAMODB", ep.dynamoDb().toString())
        // No local MSK API: the broker is given as an explicit bootstrap (decision 1505).
        .containsEntry("PROTOMOLT_KAFKA_BOOTSTRAP", ep.kafkaBootstrapServers());
    try (DeployedStack stack =
        TemplateDeployer.deploy(plan, cloud, runtimes.functions, runtimes.containers)) {
      // The migration custom resource's Create request reached the provider's onEvent target.
      assertThat(runtimes.invocations)
          .anySatisfy(
              call -> {
                assertThat(call.function()).isEqualTo("small-echo");
                assertThat(call.event())
                    .contains("\"RequestType\":\"Create\"")
                    .contains("\"ResourceType\":\"Custom::ProtoMoltSchemaMigration\"")
                    .contains("\"LogicalResourceId\":\"Migration\"");
              });

      try (DynamoDbClient dynamo =
          DynamoDbClient.builder()
              .endpointOverride(ep.dynamoDb())
              .region(Region.of(ep.region()))
              .credentialsProvider(credentials(ep))
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        TableDescription table = dynamo.describeTable(b -> b.tableName("small-drafts")).table();
        assertThat(table.keySchema())
            .extracting(k -> k.attributeName() + ":" + k.keyType())
            .containsExactly("pk:" + KeyType.HASH, "sk:" + KeyType.RANGE);
      }

      // The MSK trigger delivers what is produced to the topic the custom resource created.
      produce(ep, "small-events", "k", "{\"hello\":1}");
      TestRuntimes.Invocation batch = runtimes.kafkaBatches.poll(60, TimeUnit.SECONDS);
      assertThat(batch).as("a Kafka batch reached small-echo").isNotNull();
      assertThat(batch.event()).contains("small-events");

      // The notification on the template's bucket invokes the function for keys under in/.
      try (S3Client s3 = s3(ep)) {
        s3.putObject(
            b -> b.bucket("small-000000000000-uploads").key("in/report.txt"),
            RequestBody.fromString("hello"));
      }
      TestRuntimes.Invocation upload = runtimes.s3Events.poll(60, TimeUnit.SECONDS);
      assertThat(upload).as("an S3 event reached small-echo").isNotNull();
      assertThat(upload.event()).contains("in/report.txt");

      // Schedules run on demand: the schedule's Input, or EventBridge's scheduled event.
      assertThat(stack.scheduleNames()).containsExactlyInAnyOrder("small-nightly", "small-hourly");
      assertThat(stack.triggerSchedule("small-nightly"))
          .isEqualTo(new LambdaResult.Success("{\"job\":\"nightly\"}"));
      assertThat(((LambdaResult.Success) stack.triggerSchedule("small-hourly")).payload())
          .contains("\"detail-type\":\"Scheduled Event\"")
          .contains("arn:aws:events:us-east-1:000000000000:rule/small-hourly");

      // Aliases invoke their function; limits are the template's.
      assertThat(
              stack.invoke(
                  "arn:aws:lambda:us-east-1:000000000000:function:small-echo:live", "{\"a\":1}"))
          .isEqualTo(new LambdaResult.Success("{\"a\":1}"));
      assertThat(stack.invoke("small-throttled", "{}"))
          .isInstanceOfSatisfying(
              LambdaResult.Failure.class,
              f -> assertThat(f.errorMessage()).contains("at its reserved concurrency"));
      assertThat(stack.invoke("small-slow", "{}"))
          .isInstanceOfSatisfying(
              LambdaResult.Failure.class,
              f -> assertThat(f.errorMessage()).isEqualTo("Task timed out after 1.00 seconds"));

      // The template's state machine is on the local runtime, and its task reaches the alias.
      try (SfnClient sfn =
          SfnClient.builder()
              .endpointOverride(ep.stepFunctions().orElseThrow())
              .region(Region.of(ep.region()))
              .credentialsProvider(credentials(ep))
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        String arn =
            sfn.listStateMachines().stateMachines().stream()
                .filter(m -> m.name().equals("small-flow"))
                .findFirst()
                .orElseThrow()
                .stateMachineArn();
        String execution =
            sfn.startExecution(b -> b.stateMachineArn(arn).input("{\"flow\":\"ran\"}"))
                .executionArn();
        DescribeExecutionResponse done = sfn.describeExecution(b -> b.executionArn(execution));
        for (int i = 0; i < 600 && done.status() == ExecutionStatus.RUNNING; i++) {
          Thread.sleep(100);
          done = sfn.describeExecution(b -> b.executionArn(execution));
        }
        assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(done.output()).isEqualTo("{\"flow\":\"ran\"}");
      }

      assertThat(runtimes.runningContainers)
          .singleElement()
          .satisfies(c -> assertThat(c.environment()).containsEntry("TABLE", "small-drafts"));
      assertThat(stack.function("small-echo")).contains(plan.function("small-echo"));

      // The Lambda API reports the template's configuration, resolved.
      DeployedFunction echo = plan.function("small-echo");
      assertThat(cloud.lambdaApi().find("small-echo"))
          .hasValueSatisfying(
              f -> {
                assertThat(f.configuration().environment())
                    .containsEntry("BUCKET", "small-000000000000-uploads")
                    .doesNotContainKey("AWS_SECRET_ACCESS_KEY");
                assertThat(f.configuration().roleArn()).isEqualTo(echo.roleArn());
                assertThat(f.configuration().timeoutSeconds()).isEqualTo(2);
                assertThat(f.configuration().aliases()).containsEntry("live", "1");
              });

      // Calls signed with the function's own key are checked against its role's policies: its
      // policy lets it read the uploads bucket and nothing else.
      try (S3Client asEcho =
          S3Client.builder()
              .endpointOverride(ep.s3())
              .region(Region.of(ep.region()))
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(
                          echo.credentials().accessKeyId(), echo.credentials().secretAccessKey())))
              .forcePathStyle(true)
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        assertThat(
                asEcho
                    .getObjectAsBytes(
                        b -> b.bucket("small-000000000000-uploads").key("in/report.txt"))
                    .asUtf8String())
            .isEqualTo("hello");
        assertThatThrownBy(
                () ->
                    asEcho.putObject(
                        b -> b.bucket("small-000000000000-uploads").key("in/forged.txt"),
                        RequestBody.fromString("forged")))
            .isInstanceOfSatisfying(
                software.amazon.awssdk.services.s3.model.S3Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied"));
      }
      try (S3Client s3 = s3(ep)) {
        assertThat(
                s3.listObjectsV2(b -> b.bucket("small-000000000000-uploads").prefix("in/"))
                    .contents())
            .extracting(o -> o.key())
            .as("the denied write wrote nothing")
            .containsExactly("in/report.txt");
      }
    }
    assertThat(runtimes.runningContainers).as("closing the stack stops its task").isEmpty();
    assertThat(cloud.lambdaApi().find("small-echo")).isEmpty();
    assertThat(cloud.iam().principal(plan.function("small-echo").credentials().accessKeyId()))
        .isEmpty();
  }

  @Test
  void aFailingCustomResourceFailsTheDeploymentAndStopsWhatHadStarted() {
    TestRuntimes runtimes = new TestRuntimes();
    runtimes.failCustomResources = true;
    TemplatePlan plan = plan(runtimes);
    assertThatThrownBy(
            () -> TemplateDeployer.deploy(plan, cloud, runtimes.functions, runtimes.containers))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "Migration (Custom::ProtoMoltSchemaMigration): its onEvent function small-echo failed:")
        .hasMessageContaining("the schema could not be migrated");
    assertThat(runtimes.runningContainers).isEmpty();
  }

  @Test
  void theAwsCliListsTheTemplatesStateMachines() throws Exception {
    Path aws =
        java.util.stream.Stream.concat(
                java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                    .map(dir -> Path.of(dir, "aws")),
                java.util.stream.Stream.of(
                    Path.of(System.getProperty("user.home"), ".pyenv", "shims", "aws")))
            .filter(java.nio.file.Files::isExecutable)
            .findFirst()
            .orElse(null);
    org.junit.jupiter.api.Assumptions.assumeTrue(
        aws != null, "SKIPPED: no 'aws' command on PATH (install Debian's awscli to run it)");
    TestRuntimes runtimes = new TestRuntimes();
    LocalCloudEndpoints ep = cloud.endpoints();
    try (DeployedStack stack =
        TemplateDeployer.deploy(plan(runtimes), cloud, runtimes.functions, runtimes.containers)) {
      ProcessBuilder builder =
          new ProcessBuilder(
                  aws.toString(),
                  "stepfunctions",
                  "list-state-machines",
                  "--endpoint-url",
                  ep.stepFunctions().orElseThrow().toString(),
                  "--region",
                  ep.region(),
                  "--output",
                  "json")
              .redirectErrorStream(true);
      builder.environment().put("AWS_ACCESS_KEY_ID", ep.accessKeyId());
      builder.environment().put("AWS_SECRET_ACCESS_KEY", ep.secretAccessKey());
      builder.environment().put("AWS_PAGER", "");
      Process process = builder.start();
      String out =
          new String(
              process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("aws said: " + out).isZero();
      assertThat(out)
          .contains("\"name\": \"small-flow\"")
          .contains("arn:aws:states:us-east-1:000000000000:stateMachine:small-flow");
      assertThat(stack.plan().stateMachines()).hasSize(1);
    }
  }

  private static void produce(LocalCloudEndpoints ep, String topic, String key, String value)
      throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ep.kafkaBootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  private static S3Client s3(LocalCloudEndpoints ep) {
    return S3Client.builder()
        .endpointOverride(ep.s3())
        .region(Region.of(ep.region()))
        .credentialsProvider(credentials(ep))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static StaticCredentialsProvider credentials(LocalCloudEndpoints ep) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey()));
  }
}
