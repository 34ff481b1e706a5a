package dev.protomolt.engine.graphs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.DraftStore;
import dev.protomolt.core.graph.DraftStoreContract;
import dev.protomolt.localstack.cloud.LocalDynamoDb;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.repository.fixtures.LocalStackLease;
import dev.protomolt.repository.fixtures.LocalStackPool;
import dev.protomolt.repository.fixtures.TestCloud;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The shared draft behaviour against dynalite, which (like DynamoDB before its sweep) keeps expired
 * items; under {@code protomolt.test.cloud=localstack}, against LocalStack's DynamoDB instead.
 */
class DynamoDbDraftStoreTest extends DraftStoreContract {

  private static LocalDynamoDb dynalite;
  private static LocalStackLease localStack;
  private static DynamoDbClient client;
  private String table;

  @BeforeAll
  static void start() throws Exception {
    URI endpoint;
    if (TestCloud.usesLocalStack()) {
      // Tables are named at random per test, so a pooled container needs no emptying.
      localStack = LocalStackPool.acquire();
      endpoint = localStack.endpoint();
    } else {
      dynalite = LocalDynamoDb.start(Files.createTempDirectory("dynalite"), 0);
      endpoint = dynalite.endpoint();
    }
    client =
        DynamoDbClient.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    if (dynalite != null) {
      dynalite.close();
    }
    if (localStack != null) {
      localStack.close();
    }
  }

  @Override
  protected DraftStore emptyStore() {
    table = "graph_drafts_" + UUID.randomUUID().toString().substring(0, 8);
    DynamoDbDraftStore.createTable(client, table);
    return new DynamoDbDraftStore(client, table);
  }

  @Test
  void expiresAtIsStoredAsTheTtlAttributeInEpochSeconds() {
    store.put(
        GraphDraft.newBuilder()
            .setDraftId("draft:c1:g:ann")
            .setExpiresAt(Timestamp.newBuilder().setSeconds(1_900_000_000L))
            .build());
    Map<String, AttributeValue> item =
        client
            .getItem(
                b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("draft:c1:g:ann"))))
            .item();
    assertThat(item.get("expiresAt").n()).isEqualTo("1900000000");
  }
}
