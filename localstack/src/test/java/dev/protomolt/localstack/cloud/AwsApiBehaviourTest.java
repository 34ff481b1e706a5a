package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The S3 and DynamoDB behaviour the project's code relies on, held against every backend that
 * stands in for AWS: the embedded local cloud ({@link EmbeddedAwsApiTest}) and LocalStack through
 * Testcontainers ({@link LocalStackAwsApiTest}, skipped without a Docker engine).
 */
abstract class AwsApiBehaviourTest {

  /** Where S3 answers. */
  abstract URI s3Endpoint();

  /** Where DynamoDB answers. */
  abstract URI dynamoDbEndpoint();

  abstract AwsBasicCredentials credentials();

  /** A bucket that exists. */
  abstract String bucket();

  S3Client s3() {
    return S3Client.builder()
        .endpointOverride(s3Endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(credentials()))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  DynamoDbClient dynamo() {
    return DynamoDbClient.builder()
        .endpointOverride(dynamoDbEndpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(credentials()))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  @Test
  void anOverwrittenObjectReadsBackItsNewestBody() {
    try (S3Client s3 = s3()) {
      s3.putObject(b -> b.bucket(bucket()).key("docs/a"), RequestBody.fromString("first"));
      s3.putObject(b -> b.bucket(bucket()).key("docs/a"), RequestBody.fromString("second"));

      assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket()).key("docs/a")).asUtf8String())
          .isEqualTo("second");
    }
  }

  @Test
  void listingByPrefixReturnsOnlyThatPrefixInKeyOrder() {
    String prefix = "list-" + UUID.randomUUID() + "/";
    try (S3Client s3 = s3()) {
      for (String key : new String[] {"b", "a", "c/d"}) {
        s3.putObject(b -> b.bucket(bucket()).key(prefix + key), RequestBody.fromString(key));
      }
      s3.putObject(b -> b.bucket(bucket()).key("elsewhere"), RequestBody.fromString("x"));

      assertThat(s3.listObjectsV2(b -> b.bucket(bucket()).prefix(prefix)).contents())
          .extracting(o -> o.key().substring(prefix.length()))
          .containsExactly("a", "b", "c/d");
    }
  }

  @Test
  void aMissingKeyIsNoSuchKey() {
    try (S3Client s3 = s3()) {
      assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket(bucket()).key("missing")))
          .isInstanceOf(NoSuchKeyException.class);
    }
  }

  @Test
  void aConditionalPutRefusesToOverwriteAnExistingItem() {
    // The code uses conditional writes where AWS code might use transactions (dynalite has none).
    String table = "claims-" + UUID.randomUUID().toString().substring(0, 8);
    try (DynamoDbClient dynamo = dynamo()) {
      dynamo.createTable(
          b ->
              b.tableName(table)
                  .keySchema(
                      KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("id")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
      Map<String, AttributeValue> first =
          Map.of("id", AttributeValue.fromS("doc-1"), "owner", AttributeValue.fromS("first"));
      dynamo.putItem(
          b -> b.tableName(table).item(first).conditionExpression("attribute_not_exists(id)"));

      assertThatThrownBy(
              () ->
                  dynamo.putItem(
                      b ->
                          b.tableName(table)
                              .item(
                                  Map.of(
                                      "id",
                                      AttributeValue.fromS("doc-1"),
                                      "owner",
                                      AttributeValue.fromS("second")))
                              .conditionExpression("attribute_not_exists(id)")))
          .isInstanceOf(ConditionalCheckFailedException.class);
      assertThat(
              dynamo
                  .getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("doc-1"))))
                  .item()
                  .get("owner")
                  .s())
          .isEqualTo("first");
    }
  }
}
