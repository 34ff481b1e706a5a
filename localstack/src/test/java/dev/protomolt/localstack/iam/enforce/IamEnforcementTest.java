package dev.protomolt.localstack.iam.enforce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PolicyDocument;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.lambda.api.FunctionConfiguration;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.LambdaException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.DeletedObject;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.SfnException;

/**
 * The local IAM on the real local cloud (S3Proxy, the local Step Functions runtime, dynalite):
 * SDK clients signing with a registered key are held to that principal's policies, a denied call
 * fails with the service's own AccessDenied error and writes nothing, and clients signing with
 * the cloud's own key pass unchecked.
 */
class IamEnforcementTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "AKIDINTAKETEST";
  private static final String SECRET = "intake-secret";
  private static final String ROLE = "arn:aws:iam::000000000000:role/pm-test-IntakeRole";
  private static final String TABLE = "pm-test-drafts";

  @TempDir static Path data;
  private static LocalCloud cloud;
  private static LocalCloudEndpoints endpoints;
  private static String stateMachineArn;

  private static final String READ_STORE =
      """
      {"Sid":"Read","Effect":"Allow","Action":["s3:GetObject","s3:ListBucket"],
       "Resource":["arn:aws:s3:::protomolt-store","arn:aws:s3:::protomolt-store/*",
                   "arn:aws:s3:::protomolt-intake/*"]}\
      """;
  private static final String WRITE_DOCS =
      """
      {"Sid":"Write","Effect":"Allow","Action":"s3:PutObject",
       "Resource":"arn:aws:s3:::protomolt-store/docs/*"}\
      """;
  private static final String START =
      """
      {"Sid":"Start","Effect":"Allow","Action":["states:StartExecution","states:DescribeExecution"],
       "Resource":["arn:aws:states:us-east-1:000000000000:stateMachine:pm-test-*",
                   "arn:aws:states:us-east-1:000000000000:execution:pm-test-*:*"]}\
      """;
  private static final String DRAFTS =
      """
      {"Sid":"Drafts","Effect":"Allow","Action":["dynamodb:PutItem","dynamodb:GetItem"],
       "Resource":"arn:aws:dynamodb:us-east-1:000000000000:table/pm-test-drafts"}\
      """;

  @BeforeAll
  static void start() {
    cloud = LocalCloud.start(LocalCloudSettings.ephemeral(data.resolve("cloud")));
    endpoints = cloud.endpoints();
    try (DynamoDbClient admin = dynamo(endpoints.accessKeyId(), endpoints.secretAccessKey());
        SfnClient sfn = sfn(endpoints.accessKeyId(), endpoints.secretAccessKey())) {
      admin.createTable(
          b ->
              b.tableName(TABLE)
                  .keySchema(
                      KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("id")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      stateMachineArn =
          sfn.createStateMachine(
                  b ->
                      b.name("pm-test-graph")
                          .roleArn("arn:aws:iam::000000000000:role/pm-test-ExecutionRole")
                          .definition(
                              "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
              .stateMachineArn();
    }
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  private static void grant(String... statements) {
    String document =
        "{\"Version\":\"2012-10-17\",\"Statement\":[" + String.join(",", statements) + "]}";
    try {
      cloud
          .iam()
          .register(
              KEY,
              SECRET,
              new IamPrincipal(
                  "intake",
                  ROLE,
                  List.of(PolicyDocument.parse(JSON.readTree(document), "IntakeRole policy"))));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static StaticCredentialsProvider credentials(String key, String secret) {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
  }

  private static S3Client s3(String key, String secret) {
    return S3Client.builder()
        .endpointOverride(endpoints.s3())
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials(key, secret))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static DynamoDbClient dynamo(String key, String secret) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoints.dynamoDb())
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials(key, secret))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static SfnClient sfn(String key, String secret) {
    URI endpoint = endpoints.stepFunctions().orElseThrow();
    return SfnClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials(key, secret))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static S3Client admin() {
    return s3(endpoints.accessKeyId(), endpoints.secretAccessKey());
  }

  private static boolean exists(String bucket, String key) {
    try (S3Client admin = admin()) {
      admin.headObject(b -> b.bucket(bucket).key(key));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  @Test
  void removingOneS3StatementFailsExactlyThatCallAndWritesNothing() {
    grant(READ_STORE, WRITE_DOCS);
    try (S3Client intake = s3(KEY, SECRET)) {
      intake.putObject(b -> b.bucket("protomolt-store").key("docs/a"), RequestBody.fromString("a"));
      assertThat(exists("protomolt-store", "docs/a")).isTrue();
      assertThat(
              intake
                  .getObjectAsBytes(b -> b.bucket("protomolt-store").key("docs/a"))
                  .asUtf8String())
          .isEqualTo("a");

      grant(READ_STORE);
      assertThatThrownBy(
              () ->
                  intake.putObject(
                      b -> b.bucket("protomolt-store").key("docs/b"), RequestBody.fromString("b")))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                assertThat(e.awsErrorDetails().errorMessage())
                    .contains("assumed-role/pm-test-IntakeRole/intake")
                    .contains("s3:PutObject")
                    .contains("arn:aws:s3:::protomolt-store/docs/b")
                    .contains("no identity-based policy allows");
              });
      assertThat(exists("protomolt-store", "docs/b")).isFalse();
      // The statement that is left still works.
      assertThat(
              intake
                  .getObjectAsBytes(b -> b.bucket("protomolt-store").key("docs/a"))
                  .asUtf8String())
          .isEqualTo("a");
    }
  }

  @Test
  void deleteObjectsDeletesThePermittedKeysAndReportsEachRefusedOne() {
    try (S3Client admin = admin()) {
      for (String key : List.of("purge/d1", "purge/d2", "keep/k1")) {
        admin.putObject(b -> b.bucket("protomolt-store").key(key), RequestBody.fromString(key));
      }
    }
    grant(
        "{\"Effect\":\"Allow\",\"Action\":\"s3:DeleteObject\","
            + "\"Resource\":\"arn:aws:s3:::protomolt-store/purge/*\"}");
    try (S3Client intake = s3(KEY, SECRET)) {
      DeleteObjectsResponse mixed =
          intake.deleteObjects(
              b ->
                  b.bucket("protomolt-store")
                      .delete(
                          d ->
                              d.objects(
                                  ObjectIdentifier.builder().key("purge/d1").build(),
                                  ObjectIdentifier.builder().key("keep/k1").build())));
      assertThat(mixed.errors())
          .extracting(S3Error::key, S3Error::code)
          .containsExactly(tuple("keep/k1", "AccessDenied"));
      assertThat(mixed.deleted()).extracting(DeletedObject::key).containsExactly("purge/d1");
      assertThat(exists("protomolt-store", "purge/d1")).isFalse();
      assertThat(exists("protomolt-store", "keep/k1")).isTrue();

      DeleteObjectsResponse noneAllowed =
          intake.deleteObjects(
              b ->
                  b.bucket("protomolt-store")
                      .delete(d -> d.objects(ObjectIdentifier.builder().key("keep/k1").build())));
      assertThat(noneAllowed.errors())
          .extracting(S3Error::key, S3Error::code)
          .containsExactly(tuple("keep/k1", "AccessDenied"));
      assertThat(noneAllowed.deleted()).isEmpty();
      assertThat(exists("protomolt-store", "keep/k1")).isTrue();
      assertThat(exists("protomolt-store", "purge/d2")).isTrue();
    }
  }

  @Test
  void aCopyNeedsReadOnItsSourceAndWriteOnItsDestination() {
    try (S3Client admin = admin()) {
      admin.putObject(b -> b.bucket("protomolt-intake").key("raw/x"), RequestBody.fromString("x"));
    }
    grant(WRITE_DOCS);
    try (S3Client intake = s3(KEY, SECRET)) {
      assertThatThrownBy(
              () ->
                  intake.copyObject(
                      b ->
                          b.sourceBucket("protomolt-intake")
                              .sourceKey("raw/x")
                              .destinationBucket("protomolt-store")
                              .destinationKey("docs/copy")))
          .isInstanceOf(S3Exception.class)
          .hasMessageContaining("s3:GetObject")
          .hasMessageContaining("arn:aws:s3:::protomolt-intake/raw/x");
      assertThat(exists("protomolt-store", "docs/copy")).isFalse();
      grant(READ_STORE, WRITE_DOCS);
      intake.copyObject(
          b ->
              b.sourceBucket("protomolt-intake")
                  .sourceKey("raw/x")
                  .destinationBucket("protomolt-store")
                  .destinationKey("docs/copy"));
      assertThat(exists("protomolt-store", "docs/copy")).isTrue();
    }
  }

  @Test
  void anExplicitDenyWinsOverAWildcardAllow() {
    grant(
        "{\"Effect\":\"Allow\",\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::protomolt-*\"}",
        "{\"Effect\":\"Allow\",\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::protomolt-*/*\"}",
        "{\"Sid\":\"NoSecrets\",\"Effect\":\"Deny\",\"Action\":\"s3:PutObject\","
            + "\"Resource\":\"arn:aws:s3:::protomolt-store/secret/*\"}");
    try (S3Client intake = s3(KEY, SECRET)) {
      intake.putObject(
          b -> b.bucket("protomolt-store").key("anything/deep/key"), RequestBody.fromString("k"));
      assertThat(exists("protomolt-store", "anything/deep/key")).isTrue();
      assertThatThrownBy(
              () ->
                  intake.putObject(
                      b -> b.bucket("protomolt-store").key("secret/k"),
                      RequestBody.fromString("s")))
          .isInstanceOf(S3Exception.class)
          .hasMessageContaining("explicit deny")
          .hasMessageContaining("NoSecrets");
      assertThat(exists("protomolt-store", "secret/k")).isFalse();
      assertThat(
              intake.listObjectsV2(b -> b.bucket("protomolt-store").prefix("anything/")).keyCount())
          .isEqualTo(1);
    }
  }

  @Test
  void stepFunctionsDeniesStartingAnExecutionAndStartsNone() {
    grant(START);
    try (SfnClient intake = sfn(KEY, SECRET);
        SfnClient admin = sfn(endpoints.accessKeyId(), endpoints.secretAccessKey())) {
      String executionArn =
          intake.startExecution(b -> b.stateMachineArn(stateMachineArn).input("{}")).executionArn();
      assertThat(intake.describeExecution(b -> b.executionArn(executionArn)).executionArn())
          .isEqualTo(executionArn);
      int before =
          admin.listExecutions(b -> b.stateMachineArn(stateMachineArn)).executions().size();

      grant(READ_STORE);
      assertThatThrownBy(
              () -> intake.startExecution(b -> b.stateMachineArn(stateMachineArn).input("{}")))
          .isInstanceOfSatisfying(
              SfnException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
                assertThat(e.getMessage())
                    .contains("states:StartExecution")
                    .contains(stateMachineArn);
              });
      assertThat(admin.listExecutions(b -> b.stateMachineArn(stateMachineArn)).executions())
          .hasSize(before);
      // Task callbacks name no resource: only "*" (or an action wildcard on it) grants them.
      assertThatThrownBy(() -> intake.sendTaskHeartbeat(b -> b.taskToken("t")))
          .isInstanceOf(SfnException.class)
          .hasMessageContaining("states:SendTaskHeartbeat on resource: \"*\"");
    }
  }

  @Test
  void dynamoDbDeniesAWriteToATableTheRoleDoesNotName() {
    grant(DRAFTS);
    try (DynamoDbClient intake = dynamo(KEY, SECRET);
        DynamoDbClient admin = dynamo(endpoints.accessKeyId(), endpoints.secretAccessKey())) {
      intake.putItem(b -> b.tableName(TABLE).item(Map.of("id", AttributeValue.fromS("1"))));
      assertThat(
              intake
                  .getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS("1"))))
                  .hasItem())
          .isTrue();

      grant(READ_STORE);
      assertThatThrownBy(
              () ->
                  intake.putItem(
                      b -> b.tableName(TABLE).item(Map.of("id", AttributeValue.fromS("2")))))
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
                assertThat(e.getMessage())
                    .contains("dynamodb:PutItem")
                    .contains("arn:aws:dynamodb:us-east-1:000000000000:table/" + TABLE);
              });
      assertThat(
              admin
                  .getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS("2"))))
                  .hasItem())
          .isFalse();
    }
  }

  @Test
  void lambdaInvokeThroughTheLocalLambdaApiIsCheckedOnTheQualifiedFunctionArn() {
    AtomicInteger runs = new AtomicInteger();
    cloud
        .lambdas()
        .register(
            "pm-test-reclaim",
            (event, context) -> {
              runs.incrementAndGet();
              return "{\"reclaimed\":0}";
            });
    String arn = "arn:aws:lambda:us-east-1:000000000000:function:pm-test-reclaim";
    cloud
        .lambdaApi()
        .register(
            new FunctionConfiguration(
                "pm-test-reclaim",
                arn,
                "dev.protomolt.lambda.Reclaim::handleRequest",
                "java21",
                60,
                512,
                Map.of(),
                ROLE,
                "",
                Map.of("live", "1")),
            payload -> cloud.lambdas().invoke("pm-test-reclaim", payload));
    grant(
        "{\"Effect\":\"Allow\",\"Action\":\"lambda:InvokeFunction\",\"Resource\":\"" + arn + "\"}");
    try (LambdaClient intake =
        LambdaClient.builder()
            .endpointOverride(endpoints.lambda().orElseThrow())
            .region(Region.US_EAST_1)
            .credentialsProvider(credentials(KEY, SECRET))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      assertThat(intake.invoke(b -> b.functionName("pm-test-reclaim")).payload().asUtf8String())
          .isEqualTo("{\"reclaimed\":0}");
      assertThat(runs).hasValue(1);
      // The unqualified ARN does not cover the alias, as in AWS.
      assertThatThrownBy(
              () -> intake.invoke(b -> b.functionName("pm-test-reclaim").qualifier("live")))
          .isInstanceOfSatisfying(
              LambdaException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
                assertThat(e.getMessage())
                    .contains("lambda:InvokeFunction")
                    .contains(arn + ":live");
              });
      assertThat(runs).hasValue(1);
    }
  }

  @Test
  void unregisteredKeysPassUntilTheRegistryIsStrict() {
    try (S3Client admin = admin()) {
      admin.putObject(b -> b.bucket("protomolt-store").key("admin/1"), RequestBody.fromString("1"));
      cloud.iam().setStrict(true);
      try {
        assertThatThrownBy(
                () ->
                    admin.putObject(
                        b -> b.bucket("protomolt-store").key("admin/2"),
                        RequestBody.fromString("2")))
            .isInstanceOf(S3Exception.class)
            .hasMessageContaining("not registered with the local cloud's IAM");
      } finally {
        cloud.iam().setStrict(false);
      }
    }
    assertThat(exists("protomolt-store", "admin/1")).isTrue();
    assertThat(exists("protomolt-store", "admin/2")).isFalse();
  }

  @Test
  void anOperationWithoutAMappingIsRefusedNotLetThrough() {
    grant("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}");
    try (S3Client intake = s3(KEY, SECRET)) {
      assertThatThrownBy(() -> intake.getBucketAcl(b -> b.bucket("protomolt-store")))
          .isInstanceOf(AwsServiceException.class)
          .hasMessageContaining("GetBucketAclRequest is not mapped to IAM actions");
    }
  }

  @Test
  void aNewerRegistryKnowingTheSameKeyDecidesItsCalls() throws Exception {
    // Two local clouds deploying one stack derive the same function keys; the one started last
    // (a test's own, while an earlier one was left running) must apply its own policies.
    grant(READ_STORE, WRITE_DOCS);
    PrincipalRegistry newer = new PrincipalRegistry();
    newer.register(
        KEY,
        SECRET,
        new IamPrincipal(
            "intake",
            ROLE,
            List.of(
                PolicyDocument.parse(
                    JSON.readTree(
                        "{\"Version\":\"2012-10-17\",\"Statement\":[" + READ_STORE + "]}"),
                    "IntakeRole policy without its write"))));
    IamEnforcement.Installation installed = IamEnforcement.install(newer);
    try (S3Client intake = s3(KEY, SECRET)) {
      assertThatThrownBy(
              () ->
                  intake.putObject(
                      b -> b.bucket("protomolt-store").key("docs/newer"),
                      RequestBody.fromString("n")))
          .isInstanceOf(S3Exception.class)
          .hasMessageContaining("is not authorized to perform: s3:PutObject");
    } finally {
      installed.close();
    }
    assertThat(exists("protomolt-store", "docs/newer")).isFalse();
    try (S3Client intake = s3(KEY, SECRET)) {
      intake.putObject(
          b -> b.bucket("protomolt-store").key("docs/older"), RequestBody.fromString("o"));
    }
    assertThat(exists("protomolt-store", "docs/older"))
        .as("once the newer registry is closed, the cloud's own decides again")
        .isTrue();
  }
}
