package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessRequest;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * DynamoDB operations as DynamoDB authorizes them: an operation on one table is the action of its
 * own name on {@code arn:aws:dynamodb:<region>:<account>:table/<name>} (a Query or Scan of an index
 * on {@code .../table/<name>/index/<index>}); batch operations check their action once per table;
 * transactions check each item's own action (PutItem, UpdateItem, DeleteItem, ConditionCheckItem,
 * GetItem) on its table.
 */
final class DynamoDbActions {

  private DynamoDbActions() {}

  static List<AccessRequest> of(
      DynamoDbRequest request, String operation, String region, String account) {
    return switch (request) {
      case QueryRequest r ->
          List.of(index("dynamodb:Query", r.tableName(), r.indexName(), region, account));
      case ScanRequest r ->
          List.of(index("dynamodb:Scan", r.tableName(), r.indexName(), region, account));
      case BatchGetItemRequest r ->
          r.requestItems().keySet().stream()
              .map(t -> AccessRequest.of("dynamodb:BatchGetItem", table(t, region, account)))
              .toList();
      case BatchWriteItemRequest r ->
          r.requestItems().keySet().stream()
              .map(t -> AccessRequest.of("dynamodb:BatchWriteItem", table(t, region, account)))
              .toList();
      case TransactWriteItemsRequest r -> {
        List<AccessRequest> checks = new ArrayList<>();
        for (TransactWriteItem item : r.transactItems()) {
          if (item.put() != null) {
            checks.add(
                AccessRequest.of(
                    "dynamodb:PutItem", table(item.put().tableName(), region, account)));
          } else if (item.update() != null) {
            checks.add(
                AccessRequest.of(
                    "dynamodb:UpdateItem", table(item.update().tableName(), region, account)));
          } else if (item.delete() != null) {
            checks.add(
                AccessRequest.of(
                    "dynamodb:DeleteItem", table(item.delete().tableName(), region, account)));
          } else if (item.conditionCheck() != null) {
            checks.add(
                AccessRequest.of(
                    "dynamodb:ConditionCheckItem",
                    table(item.conditionCheck().tableName(), region, account)));
          }
        }
        yield checks;
      }
      case TransactGetItemsRequest r -> {
        List<AccessRequest> checks = new ArrayList<>();
        for (TransactGetItem item : r.transactItems()) {
          checks.add(
              AccessRequest.of("dynamodb:GetItem", table(item.get().tableName(), region, account)));
        }
        yield checks;
      }
      case ListTablesRequest _ -> List.of(AccessRequest.of("dynamodb:ListTables", "*"));
      default -> {
        // Every other operation names one table in TableName and is authorized as its own name.
        String tableName = request.getValueForField("TableName", String.class).orElse(null);
        if (tableName == null) {
          throw new OperationNotMappedException(
              "DynamoDB", operation, DynamoDbActions.class.getName());
        }
        yield List.of(AccessRequest.of("dynamodb:" + operation, table(tableName, region, account)));
      }
    };
  }

  private static AccessRequest index(
      String action, String tableName, String indexName, String region, String account) {
    String table = table(tableName, region, account);
    return AccessRequest.of(action, indexName == null ? table : table + "/index/" + indexName);
  }

  private static String table(String name, String region, String account) {
    if (name != null && name.startsWith("arn:")) {
      return name;
    }
    return "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
  }
}
