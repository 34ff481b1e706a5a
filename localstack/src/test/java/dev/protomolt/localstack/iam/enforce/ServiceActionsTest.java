package dev.protomolt.localstack.iam.enforce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.iam.AccessRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.ListFunctionsRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutBucketNotificationConfigurationRequest;
import software.amazon.awssdk.services.sfn.model.CreateStateMachineAliasRequest;
import software.amazon.awssdk.services.sfn.model.CreateStateMachineRequest;
import software.amazon.awssdk.services.sfn.model.RoutingConfigurationListItem;

/** Which IAM actions and resources each SDK request is authorized against (pure mapping). */
class ServiceActionsTest {

  private static List<AccessRequest> actions(SdkRequest request, String operation) {
    return IamEnforcement.actions(request, operation, "us-east-1", "000000000000");
  }

  @Test
  void deleteObjectsIsOneDeleteObjectPerKey() {
    DeleteObjectsRequest request =
        DeleteObjectsRequest.builder()
            .bucket("b")
            .delete(
                Delete.builder()
                    .objects(
                        ObjectIdentifier.builder().key("a/1").build(),
                        ObjectIdentifier.builder().key("a/2").versionId("v").build())
                    .build())
            .build();
    assertThat(actions(request, "DeleteObjects"))
        .containsExactly(
            AccessRequest.of("s3:DeleteObject", "arn:aws:s3:::b/a/1"),
            AccessRequest.of("s3:DeleteObjectVersion", "arn:aws:s3:::b/a/2"));
  }

  @Test
  void listingIsListBucketOnTheBucketWithThePrefixAsConditionKey() {
    assertThat(
            actions(
                ListObjectsV2Request.builder().bucket("b").prefix("p/").build(), "ListObjectsV2"))
        .containsExactly(
            new AccessRequest("s3:ListBucket", "arn:aws:s3:::b", Map.of("s3:prefix", "p/")));
    assertThat(
            actions(
                PutBucketNotificationConfigurationRequest.builder().bucket("intake").build(),
                "PutBucketNotificationConfiguration"))
        .containsExactly(AccessRequest.of("s3:PutBucketNotification", "arn:aws:s3:::intake"));
  }

  @Test
  void creatingAStateMachinePassesItsRoleToStepFunctions() {
    assertThat(
            actions(
                CreateStateMachineRequest.builder()
                    .name("pm-g")
                    .roleArn("arn:aws:iam::000000000000:role/exec")
                    .publish(true)
                    .build(),
                "CreateStateMachine"))
        .containsExactly(
            AccessRequest.of(
                "states:CreateStateMachine",
                "arn:aws:states:us-east-1:000000000000:stateMachine:pm-g"),
            new AccessRequest(
                "iam:PassRole",
                "arn:aws:iam::000000000000:role/exec",
                Map.of("iam:PassedToService", "states.amazonaws.com")),
            AccessRequest.of(
                "states:PublishStateMachineVersion",
                "arn:aws:states:us-east-1:000000000000:stateMachine:pm-g"));
  }

  @Test
  void anAliasIsCreatedOnItsOwnArn() {
    String machine = "arn:aws:states:us-east-1:000000000000:stateMachine:pm-g";
    assertThat(
            actions(
                CreateStateMachineAliasRequest.builder()
                    .name("active")
                    .routingConfiguration(
                        RoutingConfigurationListItem.builder()
                            .stateMachineVersionArn(machine + ":3")
                            .weight(100)
                            .build())
                    .build(),
                "CreateStateMachineAlias"))
        .containsExactly(AccessRequest.of("states:CreateStateMachineAlias", machine + ":active"));
  }

  @Test
  void dynamoDbIndexesAndTransactionsAreCheckedPerResourceAndItem() {
    String table = "arn:aws:dynamodb:us-east-1:000000000000:table/";
    assertThat(actions(QueryRequest.builder().tableName("t").indexName("byGraph").build(), "Query"))
        .containsExactly(AccessRequest.of("dynamodb:Query", table + "t/index/byGraph"));
    assertThat(
            actions(
                TransactWriteItemsRequest.builder()
                    .transactItems(
                        TransactWriteItem.builder()
                            .put(
                                Put.builder()
                                    .tableName("a")
                                    .item(Map.of("id", AttributeValue.fromS("1")))
                                    .build())
                            .build(),
                        TransactWriteItem.builder()
                            .conditionCheck(ConditionCheck.builder().tableName("b").build())
                            .build())
                    .build(),
                "TransactWriteItems"))
        .containsExactly(
            AccessRequest.of("dynamodb:PutItem", table + "a"),
            AccessRequest.of("dynamodb:ConditionCheckItem", table + "b"));
    assertThat(
            actions(UpdateTimeToLiveRequest.builder().tableName("t").build(), "UpdateTimeToLive"))
        .containsExactly(AccessRequest.of("dynamodb:UpdateTimeToLive", table + "t"));
  }

  @Test
  void invokeIsInvokeFunctionOnTheQualifiedArn() {
    String fn = "arn:aws:lambda:us-east-1:000000000000:function:intake";
    assertThat(actions(InvokeRequest.builder().functionName("intake").build(), "Invoke"))
        .containsExactly(AccessRequest.of("lambda:InvokeFunction", fn));
    assertThat(
            actions(
                InvokeRequest.builder().functionName("intake").qualifier("live").build(), "Invoke"))
        .containsExactly(AccessRequest.of("lambda:InvokeFunction", fn + ":live"));
    assertThat(actions(InvokeRequest.builder().functionName(fn + ":live").build(), "Invoke"))
        .containsExactly(AccessRequest.of("lambda:InvokeFunction", fn + ":live"));
    assertThat(actions(ListFunctionsRequest.builder().build(), "ListFunctions"))
        .containsExactly(AccessRequest.of("lambda:ListFunctions", "*"));
  }
}
