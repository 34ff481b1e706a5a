package dev.protomolt.cli;

import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.GraphUpdateFeed;
import dev.protomolt.engine.graphs.PipelineGraphGrpcService;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The engine's {@code PipelineGraphService} door as the local platform serves it on the gateway
 * port: activation goes through {@link GraphActivationService}, so a graph activated with {@code
 * protomolt graph activate} is compiled, published on the local Step Functions runtime and aliased
 * exactly like one activated in code. Drafts live in the local DynamoDB (dynalite).
 */
final class LocalGraphDoor {

  /** The drafts table the local platform creates in dynalite when it is missing. */
  static final String DRAFTS_TABLE = "protomolt-graph-drafts";

  /** The draft store and the client it owns. */
  record Drafts(DynamoDbDraftStore store, DynamoDbClient client) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }

  private LocalGraphDoor() {}

  static PipelineGraphGrpcService of(
      GraphAdminService admin,
      GraphActivationService activation,
      DraftService drafts,
      GraphUpdateFeed feed) {
    // The activation service attached itself to the admin service when it was built; taking it
    // here only makes that ordering a compile-time requirement of the caller.
    Objects.requireNonNull(activation, "activation");
    return new PipelineGraphGrpcService(admin, drafts, feed);
  }

  static Drafts draftStore(LocalCloudEndpoints ep) {
    DynamoDbClient dynamo =
        DynamoDbClient.builder()
            .endpointOverride(ep.dynamoDb())
            .region(Region.of(ep.region()))
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .build();
    try {
      DynamoDbDraftStore.createTable(dynamo, DRAFTS_TABLE);
    } catch (RuntimeException e) {
      dynamo.close();
      throw e;
    }
    return new Drafts(new DynamoDbDraftStore(dynamo, DRAFTS_TABLE), dynamo);
  }
}
