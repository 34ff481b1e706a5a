package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.localstack.s3.S3NotificationRule;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The whole local cloud, started once: every endpoint answers its AWS client, an upload by the
 * SDK or the AWS CLI reaches a function as an S3Event, a Kafka record reaches one as a KafkaEvent,
 * and (last) a restart on the same folder keeps every component's data while stop leaves no
 * child process behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalCloudTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path data;
  private static LocalCloud cloud;
  private static final BlockingQueue<JsonNode> S3_EVENTS = new LinkedBlockingQueue<>();
  private static final BlockingQueue<JsonNode> KAFKA_EVENTS = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start() {
    cloud = LocalCloud.start(LocalCloudSettings.ephemeral(data.resolve("cloud")));
    registerFunctions(cloud);
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  private static void registerFunctions(LocalCloud running) {
    running
        .lambdas()
        .register(
            "intake",
            (event, context) -> {
              S3_EVENTS.add(JSON.readTree(event));
              return "{}";
            });
    running
        .lambdas()
        .register(
            "indexing-ledger",
            (event, context) -> {
              KAFKA_EVENTS.add(JSON.readTree(event));
              return "{}";
            });
    running.addS3Notification(S3NotificationRule.allObjects("protomolt-intake", "intake"));
  }

  private static S3Client s3(LocalCloudEndpoints endpoints) {
    return S3Client.builder()
        .endpointOverride(endpoints.s3())
        .region(Region.of(endpoints.region()))
        .credentialsProvider(credentials(endpoints))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static DynamoDbClient dynamo(LocalCloudEndpoints endpoints) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoints.dynamoDb())
        .region(Region.of(endpoints.region()))
        .credentialsProvider(credentials(endpoints))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static StaticCredentialsProvider credentials(LocalCloudEndpoints endpoints) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(endpoints.accessKeyId(), endpoints.secretAccessKey()));
  }

  private static SfnClient sfn(LocalCloudEndpoints endpoints) {
    return SfnClient.builder()
        .endpointOverride(endpoints.stepFunctions().orElseThrow())
        .region(Region.of(endpoints.region()))
        .credentialsProvider(credentials(endpoints))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static JsonNode nextEvent(BlockingQueue<JsonNode> queue) throws InterruptedException {
    JsonNode event = queue.poll(60, TimeUnit.SECONDS);
    if (event == null) {
      fail("no event arrived within a minute");
    }
    return event;
  }

  @Test
  @Order(1)
  void reportsEveryEndpointOnLoopbackWithTheRegionKeysAndBuckets() {
    LocalCloudEndpoints endpoints = cloud.endpoints();

    assertThat(endpoints.s3().getHost()).isEqualTo("127.0.0.1");
    assertThat(endpoints.dynamoDb().getHost()).isEqualTo("127.0.0.1");
    assertThat(endpoints.kafkaBootstrapServers()).startsWith("127.0.0.1:");
    assertThat(endpoints.postgresJdbcUrl()).startsWith("jdbc:postgresql://127.0.0.1:");
    assertThat(endpoints.region()).isEqualTo("us-east-1");
    assertThat(endpoints.buckets()).containsExactly("protomolt-intake", "protomolt-store");
    assertThat(endpoints.stepFunctions())
        .hasValueSatisfying(uri -> assertThat(uri.getHost()).isEqualTo("127.0.0.1"));
    assertThat(endpoints.environment())
        .containsEntry("AWS_ENDPOINT_URL_S3", endpoints.s3().toString())
        .containsEntry("AWS_ENDPOINT_URL_DYNAMODB", endpoints.dynamoDb().toString())
        .containsEntry("AWS_ACCESS_KEY_ID", endpoints.accessKeyId());
  }

  @Test
  @Order(2)
  void migrationsAreAppliedToThePostgresDatabase() throws Exception {
    LocalCloudEndpoints endpoints = cloud.endpoints();
    try (Connection c =
            DriverManager.getConnection(
                endpoints.postgresJdbcUrl(),
                endpoints.postgresUser(),
                endpoints.postgresPassword());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success")) {
      rs.next();
      assertThat(rs.getInt(1)).isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  @Order(3)
  void anSdkUploadToTheIntakeBucketInvokesTheIntakeFunction() throws Exception {
    S3_EVENTS.clear();
    try (S3Client s3 = s3(cloud.endpoints())) {
      s3.putObject(
          b -> b.bucket("protomolt-intake").key("sdk/doc.txt"),
          RequestBody.fromString("from the sdk"));
    }

    JsonNode record = nextEvent(S3_EVENTS).get("Records").get(0);
    Eventually.until(
        "the notification marked delivered", () -> cloud.pendingS3Notifications() == 0);
    assertThat(cloud.pendingS3Notifications())
        .as("marked delivered once the function returned")
        .isZero();
    assertThat(record.get("eventName").asText()).isEqualTo("ObjectCreated:Put");
    assertThat(record.at("/s3/object/key").asText()).isEqualTo("sdk/doc.txt");
  }

  @Test
  @Order(4)
  void anAwsCliUploadInvokesTheIntakeFunction() throws Exception {
    String aws = findOnPath("aws");
    if (aws == null && "true".equals(System.getenv("CI"))) {
      fail("the AWS CLI is not installed; CI installs Debian's awscli for this test");
    }
    assumeTrue(aws != null, "the AWS CLI is not on the PATH");
    S3_EVENTS.clear();
    Path file = data.resolve("cli-upload.txt");
    Files.writeString(file, "from the cli");
    LocalCloudEndpoints endpoints = cloud.endpoints();
    ProcessBuilder cli =
        new ProcessBuilder(
                aws,
                "s3",
                "cp",
                file.toString(),
                "s3://protomolt-intake/cli/upload.txt",
                "--endpoint-url",
                endpoints.s3().toString())
            .redirectErrorStream(true);
    cli.environment().putAll(endpoints.environment());
    cli.environment().put("AWS_CONFIG_FILE", data.resolve("no-aws-config").toString());
    cli.environment().put("AWS_SHARED_CREDENTIALS_FILE", data.resolve("no-aws-creds").toString());
    Process process = cli.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();

    JsonNode record = nextEvent(S3_EVENTS).get("Records").get(0);
    assertThat(record.at("/s3/object/key").asText()).isEqualTo("cli/upload.txt");
    assertThat(record.at("/s3/object/size").asLong()).isEqualTo(12);
  }

  @Test
  @Order(5)
  void aRecordOnAMappedTopicInvokesTheFunctionWithAKafkaEvent() throws Exception {
    KAFKA_EVENTS.clear();
    createTopic(cloud.endpoints(), "document-indexed");
    cloud.addMskEventSource(MskEventSourceMapping.of("indexing-ledger", "document-indexed"));
    produce(cloud.endpoints(), "document-indexed", "doc-7", "indexed");

    JsonNode event = nextEvent(KAFKA_EVENTS);
    assertThat(event.get("eventSource").asText()).isEqualTo("aws:kafka");
    JsonNode record = event.get("records").get("document-indexed-0").get(0);
    assertThat(
            new String(
                Base64.getDecoder().decode(record.get("value").asText()), StandardCharsets.UTF_8))
        .isEqualTo("indexed");
  }

  /**
   * A scan bounded to what was written since a moment still reads every object and record written
   * after it, and skips those written before: a bound an hour ahead finds neither.
   */
  @Test
  @Order(6)
  void aPlaintextScanWrittenSinceSkipsOnlyWhatWasWrittenBefore() throws Exception {
    String marker = "ibisnarwhal41c0de77";
    LocalCloudEndpoints endpoints = cloud.endpoints();
    Instant before = Instant.now();
    createTopic(endpoints, "scan-bound");
    produce(endpoints, "scan-bound", "k", "it said " + marker);
    try (S3Client s3 = s3(endpoints);
        DynamoDbClient dynamo = dynamo(endpoints);
        SfnClient sfn = sfn(endpoints)) {
      s3.putObject(
          b -> b.bucket("protomolt-intake").key("scan/bound.txt"),
          RequestBody.fromString("it said " + marker));
      PlaintextScan scan = new PlaintextScan(cloud, s3, dynamo, sfn);
      assertThat(scan.writtenSince(before).find(marker))
          .containsExactlyInAnyOrder("s3:protomolt-intake/scan/bound.txt", "kafka:scan-bound");
      assertThat(scan.writtenSince(Instant.now().plus(Duration.ofHours(1))).find(marker))
          .as("everything was written before the bound")
          .isEmpty();
    }
  }

  @Test
  @Order(6)
  void aTopicNobodyCreatedIsNotCreatedByWritingToIt() throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cloud.endpoints().kafkaBootstrapServers());
    // How long the send waits for the topic to appear; it never does, as on MSK Serverless.
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      assertThatThrownBy(
              () -> producer.send(new ProducerRecord<>("nobody-created-this", "k", "v")).get())
          .hasMessageContaining("nobody-created-this");
    }
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cloud.endpoints().kafkaBootstrapServers()))) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
          .doesNotContain("nobody-created-this");
    }
  }

  /** Thrown by a function so a state machine can catch it by its class name, as in AWS. */
  static final class DocumentRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DocumentRejected(String message) {
      super(message);
    }
  }

  @Test
  @Order(5)
  void aStateMachineRunsItsLambdaTasksOnTheRegisteredFunctions() throws Exception {
    cloud
        .lambdas()
        .register(
            "sfn-answer",
            (event, context) -> "{\"answer\":" + JSON.readTree(event).get("n").asInt() * 2 + "}");
    cloud
        .lambdas()
        .register(
            "sfn-reject",
            (event, context) -> {
              throw new DocumentRejected("not a document");
            });
    String definition =
        """
        {"StartAt":"Answer","States":{
          "Answer":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
            "Parameters":{"FunctionName":"sfn-answer","Payload.$":"$"},
            "ResultSelector":{"answer.$":"$.Payload.answer"},"ResultPath":"$.result",
            "Next":"Reject"},
          "Reject":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
            "Parameters":{"FunctionName":"sfn-reject","Payload.$":"$"},
            "Catch":[{"ErrorEquals":["%s"],"ResultPath":"$.rejected","Next":"Rejected"}],
            "End":true},
          "Rejected":{"Type":"Succeed"}}}\
        """
            .formatted(DocumentRejected.class.getName());
    LocalCloudEndpoints endpoints = cloud.endpoints();
    try (SfnClient sfn = sfn(endpoints)) {
      String machine =
          sfn.createStateMachine(
                  b ->
                      b.name("local-cloud-smoke")
                          .roleArn("arn:aws:iam::000000000000:role/sfn")
                          .definition(definition))
              .stateMachineArn();
      String execution =
          sfn.startExecution(b -> b.stateMachineArn(machine).name("run-1").input("{\"n\":21}"))
              .executionArn();

      DescribeExecutionResponse done = StepFunctionsExecutions.awaitClosed(sfn, execution);

      assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
      JsonNode output = JSON.readTree(done.output());
      assertThat(output.at("/result/answer").asInt()).isEqualTo(42);
      assertThat(output.at("/rejected/Error").asText()).isEqualTo(DocumentRejected.class.getName());
      assertThat(output.at("/rejected/Cause").asText()).contains("not a document");
    }
  }

  @Test
  @Order(6)
  void notificationsAndEventSourcesMustNameARegisteredFunctionAndAKnownBucket() {
    assertThatThrownBy(
            () ->
                cloud.addS3Notification(
                    S3NotificationRule.allObjects("protomolt-intake", "not-registered")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("functionName")
        .hasMessageContaining("'not-registered', which is not registered");
    assertThatThrownBy(
            () ->
                cloud.addS3Notification(S3NotificationRule.allObjects("no-such-bucket", "intake")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket: 'no-such-bucket' is not one of the local cloud's buckets");
    assertThatThrownBy(
            () -> cloud.addMskEventSource(MskEventSourceMapping.of("not-registered", "some-topic")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MSK event source on [some-topic] names 'not-registered'");
  }

  @Test
  @Order(6)
  void aTakenPortFailsTheStartBeforeAnythingStarts() {
    int taken = cloud.endpoints().s3().getPort();
    LocalCloudSettings free = LocalCloudSettings.ephemeral(data.resolve("clash"));
    LocalCloudSettings clash =
        new LocalCloudSettings(
            free.dataDir(),
            free.region(),
            free.accessKeyId(),
            free.secretAccessKey(),
            free.buckets(),
            taken,
            0,
            0,
            0,
            0,
            0);

    assertThatThrownBy(() -> LocalCloud.start(clash))
        .isInstanceOf(PortInUseException.class)
        .hasMessageContaining("S3 (S3Proxy) cannot listen on 127.0.0.1:" + taken)
        .hasMessageContaining("-Dprotomolt.local.s3.port=PORT");
    assertThat(data.resolve("clash")).doesNotExist();
  }

  @Test
  @Order(6)
  void aStepFunctionsRuntimeThatFailsToStartStopsEverythingElse() {
    List<Long> before = processesUnder(data);

    assertThatThrownBy(
            () ->
                LocalCloud.start(
                    LocalCloudSettings.ephemeral(data.resolve("sfn-fails")),
                    environment -> {
                      throw new IllegalStateException("runtime refused to start");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("runtime refused to start");

    assertThat(processesUnder(data))
        .as("PostgreSQL and dynalite of the failed start")
        .isSubsetOf(before);
  }

  /** Stands in for the local Step Functions runtime to check what the hook hands over. */
  static final class RecordingRuntime implements StepFunctionsRuntime {
    volatile StepFunctionsEnvironment environment;
    volatile boolean closed;

    @Override
    public URI endpoint() {
      return URI.create("http://127.0.0.1:18150");
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Test
  @Order(7)
  void restartKeepsEveryComponentsDataAndStopLeavesNoChildProcess() throws Exception {
    LocalCloudEndpoints before = cloud.endpoints();
    try (S3Client s3 = s3(before)) {
      s3.putObject(b -> b.bucket("protomolt-store").key("kept"), RequestBody.fromString("kept"));
    }
    try (Connection c =
            DriverManager.getConnection(
                before.postgresJdbcUrl(), before.postgresUser(), before.postgresPassword());
        Statement s = c.createStatement()) {
      s.execute("INSERT INTO accounts (account_id) VALUES ('kept-account')");
    }
    try (DynamoDbClient dynamo = dynamo(before)) {
      dynamo.createTable(
          b ->
              b.tableName("kept")
                  .keySchema(
                      KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("id")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      dynamo.putItem(b -> b.tableName("kept").item(Map.of("id", AttributeValue.fromS("item"))));
    }
    createTopic(before, "kept-topic");
    produce(before, "kept-topic", "k", "kept-record");
    List<ProcessHandle> children = cloud.childProcesses();
    assertThat(children).hasSize(2).allMatch(ProcessHandle::isAlive);

    cloud.close();
    assertThat(children).noneMatch(ProcessHandle::isAlive);
    RecordingRuntime stepFunctions = new RecordingRuntime();
    cloud =
        LocalCloud.start(
            LocalCloudSettings.ephemeral(data.resolve("cloud")),
            environment -> {
              stepFunctions.environment = environment;
              return stepFunctions;
            });
    registerFunctions(cloud);
    LocalCloudEndpoints after = cloud.endpoints();

    assertThat(after.stepFunctions()).contains(URI.create("http://127.0.0.1:18150"));
    assertThat(after.environment()).containsEntry("AWS_ENDPOINT_URL_SFN", "http://127.0.0.1:18150");
    assertThat(stepFunctions.environment.lambdas()).isSameAs(cloud.lambdas());
    assertThat(stepFunctions.environment.requestedPort()).isZero();
    try (Connection c = stepFunctions.environment.database().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM accounts")) {
      rs.next();
      assertThat(rs.getInt(1))
          .as("the runtime gets the migrated, persistent database")
          .isEqualTo(1);
    }

    try (S3Client s3 = s3(after)) {
      assertThat(s3.getObjectAsBytes(b -> b.bucket("protomolt-store").key("kept")).asUtf8String())
          .isEqualTo("kept");
    }
    try (Connection c =
            DriverManager.getConnection(
                after.postgresJdbcUrl(), after.postgresUser(), after.postgresPassword());
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*) FROM accounts WHERE account_id = 'kept-account'")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(1);
    }
    try (DynamoDbClient dynamo = dynamo(after)) {
      assertThat(
              dynamo
                  .getItem(b -> b.tableName("kept").key(Map.of("id", AttributeValue.fromS("item"))))
                  .hasItem())
          .isTrue();
    }
    KAFKA_EVENTS.clear();
    cloud.addMskEventSource(MskEventSourceMapping.of("indexing-ledger", "kept-topic"));
    JsonNode record = nextEvent(KAFKA_EVENTS).get("records").get("kept-topic-0").get(0);
    assertThat(
            new String(
                Base64.getDecoder().decode(record.get("value").asText()), StandardCharsets.UTF_8))
        .isEqualTo("kept-record");

    cloud.close();
    assertThat(stepFunctions.closed).as("close stops the Step Functions runtime").isTrue();
  }

  /** Creates {@code topic} as the template's topics resource would; the broker creates none. */
  private static void createTopic(LocalCloudEndpoints endpoints, String topic) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafkaBootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  private static void produce(LocalCloudEndpoints endpoints, String topic, String key, String value)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafkaBootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  /** Processes (PostgreSQL servers, dynalite) whose command line names a folder under {@code dir}. */
  private static List<Long> processesUnder(Path dir) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(cmd -> cmd.contains(dir.toString())).orElse(false))
        .map(ProcessHandle::pid)
        .toList();
  }

  private static String findOnPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
