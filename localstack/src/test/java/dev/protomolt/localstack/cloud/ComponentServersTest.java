package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.s3.ObjectCreatedListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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

/** Each component server on its own: start, answer the AWS SDK, refuse a taken port clearly. */
class ComponentServersTest {

  private static final AwsBasicCredentials KEYS =
      AwsBasicCredentials.create(
          LocalCloudSettings.DEFAULT_ACCESS_KEY_ID, LocalCloudSettings.DEFAULT_SECRET_ACCESS_KEY);

  @TempDir Path data;

  @Test
  void s3ProxyStoresWhatTheSdkPutsAndCreatesTheConfiguredBuckets() {
    try (LocalS3 s3 =
            LocalS3.start(
                data.resolve("s3"),
                0,
                KEYS.accessKeyId(),
                KEYS.secretAccessKey(),
                List.of("intake"),
                ObjectCreatedListener.NONE);
        S3Client client = s3Client(s3)) {
      client.putObject(b -> b.bucket("intake").key("a/b.txt"), RequestBody.fromString("hello"));

      assertThat(client.getObjectAsBytes(b -> b.bucket("intake").key("a/b.txt")).asUtf8String())
          .isEqualTo("hello");
      assertThat(data.resolve("s3/intake")).isDirectory();
    }
  }

  @Test
  void dynaliteAnswersTheDynamoDbClient() {
    try (LocalDynamoDb dynamo = LocalDynamoDb.start(data.resolve("dynamodb"), 0);
        DynamoDbClient client =
            DynamoDbClient.builder()
                .endpointOverride(dynamo.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(KEYS))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
      client.createTable(
          b ->
              b.tableName("drafts")
                  .keySchema(
                      KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("id")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      client.putItem(
          b ->
              b.tableName("drafts")
                  .item(
                      Map.of(
                          "id",
                          AttributeValue.fromS("d1"),
                          "body",
                          AttributeValue.fromS("draft one"))));

      Map<String, AttributeValue> item =
          client
              .getItem(b -> b.tableName("drafts").key(Map.of("id", AttributeValue.fromS("d1"))))
              .item();

      assertThat(item.get("body").s()).isEqualTo("draft one");
    }
  }

  @Test
  void dynaliteProcessIsGoneAfterStop() {
    LocalDynamoDb dynamo = LocalDynamoDb.start(data.resolve("dynamodb"), 0);
    ProcessHandle child = dynamo.processHandle();
    assertThat(child.isAlive()).isTrue();

    dynamo.close();

    assertThat(child.isAlive()).isFalse();
  }

  @Test
  void aTakenPortIsRefusedWithThePortAndTheSettingThatMovesIt() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getByName(LoopbackPort.HOST), 0));
      int port = taken.getLocalPort();

      assertThatThrownBy(() -> LocalDynamoDb.start(data.resolve("dynamodb"), port))
          .isInstanceOf(PortInUseException.class)
          .hasMessageContaining("127.0.0.1:" + port)
          .hasMessageContaining("-Dprotomolt.local.dynamodb.port=PORT")
          .hasMessageContaining("DynamoDB");
      assertThatThrownBy(
              () ->
                  LocalS3.start(
                      data.resolve("s3"), port, "k", "s", List.of(), ObjectCreatedListener.NONE))
          .isInstanceOf(PortInUseException.class)
          .hasMessageContaining("-Dprotomolt.local.s3.port=PORT");
      assertThatThrownBy(() -> LocalPostgres.start(data.resolve("postgres/data"), port))
          .isInstanceOf(PortInUseException.class)
          .hasMessageContaining("-Dprotomolt.local.postgres.port=PORT");
      assertThatThrownBy(() -> LocalKafka.start(data.resolve("kafka"), port, 0))
          .isInstanceOf(PortInUseException.class)
          .hasMessageContaining("Kafka broker")
          .hasMessageContaining("-Dprotomolt.local.kafka.port=PORT");
    }
  }

  @Test
  void aMissingNodeOrDynaliteNamesTheSettingThatPointsAtIt() {
    System.setProperty(LocalDynamoDb.NODE_SETTING, data.resolve("no-node").toString());
    try {
      assertThatThrownBy(() -> LocalDynamoDb.start(data.resolve("dynamodb"), 0))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("install Node.js 20+ or set -Dprotomolt.local.node=");
    } finally {
      System.clearProperty(LocalDynamoDb.NODE_SETTING);
    }
    System.setProperty(LocalDynamoDb.DYNALITE_HOME_SETTING, data.toString());
    try {
      assertThatThrownBy(() -> LocalDynamoDb.start(data.resolve("dynamodb"), 0))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("protomolt.local.dynalite.home points at " + data)
          .hasMessageContaining("not the dynalite package folder");
    } finally {
      System.clearProperty(LocalDynamoDb.DYNALITE_HOME_SETTING);
    }
  }

  @Test
  void anOutOfRangePortNamesTheSetting() {
    assertThatThrownBy(() -> LoopbackPort.claim(70_000, "S3", LocalCloudSettings.S3_PORT_SETTING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("protomolt.local.s3.port")
        .hasMessageContaining("70000");
  }

  static S3Client s3Client(LocalS3 s3) {
    return S3Client.builder()
        .endpointOverride(s3.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(KEYS))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
