package dev.protomolt.engine.graphs;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.graph.DraftStore;
import dev.protomolt.proto.config.v1.GraphDraft;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Drafts in DynamoDB, one item per draft id (partition key {@code pk}, as infra/cdk's StateTables
 * declares it). {@code expiresAt} (epoch seconds) is the table's TTL
 * attribute in AWS, but DynamoDB deletes expired items lazily (and dynalite never does), so a read
 * filters on it: an item past its expiry is absent. No transactions are needed: every write is a
 * single-item put.
 */
public final class DynamoDbDraftStore implements DraftStore {

  static final String KEY = "pk";
  static final String BODY = "draft";
  static final String EXPIRES_AT = "expiresAt";

  private final DynamoDbClient dynamo;
  private final String table;

  public DynamoDbDraftStore(DynamoDbClient dynamo, String table) {
    this.dynamo = dynamo;
    this.table = table;
  }

  /** Creates the table where infrastructure code has not (the local cloud, tests). */
  public static void createTable(DynamoDbClient dynamo, String table) {
    try {
      dynamo.createTable(
          b ->
              b.tableName(table)
                  .keySchema(
                      KeySchemaElement.builder().attributeName(KEY).keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName(KEY)
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      // Poll briskly: the SDK's default waiter sleeps 20 s between checks, an age for a local
      // table.
      try (DynamoDbWaiter waiter =
          DynamoDbWaiter.builder()
              .client(dynamo)
              .overrideConfiguration(
                  w ->
                      w.maxAttempts(240)
                          .backoffStrategyV2(BackoffStrategy.fixedDelay(Duration.ofMillis(250))))
              .build()) {
        waiter.waitUntilTableExists(b -> b.tableName(table));
      }
    } catch (ResourceInUseException alreadyThere) {
      // Creating an existing table is the no-op the caller wanted.
    }
  }

  @Override
  public void put(GraphDraft draft) {
    dynamo.putItem(
        b ->
            b.tableName(table)
                .item(
                    Map.of(
                        KEY, AttributeValue.fromS(draft.getDraftId()),
                        BODY, AttributeValue.fromB(SdkBytes.fromByteArray(draft.toByteArray())),
                        EXPIRES_AT,
                            AttributeValue.fromN(
                                Long.toString(draft.getExpiresAt().getSeconds())))));
  }

  @Override
  public Optional<GraphDraft> get(String draftId, Instant now) {
    GetItemResponse response =
        dynamo.getItem(
            b ->
                b.tableName(table)
                    .consistentRead(true)
                    .key(Map.of(KEY, AttributeValue.fromS(draftId))));
    return response.hasItem() && !response.item().isEmpty()
        ? live(response.item(), now)
        : Optional.empty();
  }

  @Override
  public boolean delete(String draftId, Instant now) {
    DeleteItemResponse response =
        dynamo.deleteItem(
            b ->
                b.tableName(table)
                    .key(Map.of(KEY, AttributeValue.fromS(draftId)))
                    .returnValues(ReturnValue.ALL_OLD));
    return response.hasAttributes()
        && !response.attributes().isEmpty()
        && live(response.attributes(), now).isPresent();
  }

  private static Optional<GraphDraft> live(Map<String, AttributeValue> item, Instant now) {
    GraphDraft draft;
    try {
      draft = GraphDraft.parseFrom(item.get(BODY).b().asByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "draft item " + item.get(KEY).s() + " holds a body that is not a GraphDraft", e);
    }
    Instant expires =
        Instant.ofEpochSecond(draft.getExpiresAt().getSeconds(), draft.getExpiresAt().getNanos());
    return now.isBefore(expires) ? Optional.of(draft) : Optional.empty();
  }
}
