package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.sfn.model.InvalidArnException;
import software.amazon.awssdk.services.sfn.model.InvalidDefinitionException;
import software.amazon.awssdk.services.sfn.model.RoutingConfigurationListItem;
import software.amazon.awssdk.services.sfn.model.SfnException;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;

/**
 * The ProtoMolt hop shape (Prepare → Work callback → Complete → Next → FanOut on the pinned
 * version) driven only through the AWS SDK's {@link SfnClient}, the way the graph admin, the
 * gateway and admission talk to Step Functions in AWS. The Lambdas are plain Java functions.
 */
class SfnClientIntegrationTest {

  private static SfnFixture sfn;
  private static final LinkedBlockingQueue<String> WORK = new LinkedBlockingQueue<>();

  private static final String HOP =
      """
      {"Comment":"graph demo","StartAt":"Start","States":{
        "Start":{"Type":"Choice","Choices":[
          {"Variable":"$.node","StringEquals":"parser","Next":"parser.Prepare"}],
          "Default":"Unknown"},
        "parser.Prepare":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
          "Parameters":{"FunctionName":"prepare","Payload.$":"$"},
          "ResultSelector":{"doc.$":"$.Payload.doc"},"ResultPath":"$.prepared",
          "Next":"parser.Work"},
        "parser.Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch",
            "Payload":{"token.$":"$$.Task.Token","doc.$":"$.prepared.doc"}},
          "HeartbeatSeconds":30,"TimeoutSeconds":600,
          "Retry":[{"ErrorEquals":["States.HeartbeatTimeout"],"IntervalSeconds":2,
                    "MaxAttempts":5,"BackoffRate":2,"MaxDelaySeconds":60}],
          "ResultPath":"$.work","Next":"parser.Complete"},
        "parser.Complete":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
          "Parameters":{"FunctionName":"complete","Payload.$":"$"},
          "ResultSelector":{"destinations.$":"$.Payload.destinations"},
          "ResultPath":"$.completed","Next":"parser.Next"},
        "parser.Next":{"Type":"Choice","Choices":[
          {"Variable":"$.completed.destinations[0]","IsPresent":true,"Next":"parser.FanOut"}],
          "Default":"Done"},
        "parser.FanOut":{"Type":"Map","ItemsPath":"$.completed.destinations","MaxConcurrency":4,
          "ItemSelector":{"dest.$":"$$.Map.Item.Value","parent.$":"$$.Execution.Name"},
          "ItemProcessor":{"StartAt":"Child","States":{"Child":{"Type":"Task",
            "Resource":"arn:aws:states:::states:startExecution",
            "Parameters":{"StateMachineArn.$":"$.dest.version",
              "Name.$":"States.Format('{}-{}', $.parent, $.dest.index)",
              "Input":{"node":"leaf"}},
            "End":true}}},
          "ResultPath":null,"Next":"Done"},
        "Unknown":{"Type":"Succeed"},
        "Done":{"Type":"Succeed"}}}\
      """;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register("prepare", payload -> "{\"doc\":\"hydrated\"}");
    sfn.lambdas.register(
        "dispatch",
        payload -> {
          WORK.add(payload);
          return "{}";
        });
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  @Test
  void aHopRunsEndToEndThroughTheSdk() throws InterruptedException {
    SfnClient client = sfn.client;
    String machine =
        client
            .createStateMachine(
                b ->
                    b.name("graph-demo")
                        .definition(HOP)
                        .roleArn("arn:aws:iam::000000000000:role/sfn")
                        .publish(true))
            .stateMachineArn();
    String version = machine + ":1";
    String alias =
        client
            .createStateMachineAlias(
                b ->
                    b.name("active")
                        .routingConfiguration(
                            RoutingConfigurationListItem.builder()
                                .stateMachineVersionArn(version)
                                .weight(100)
                                .build()))
            .stateMachineAliasArn();
    sfn.lambdas.register(
        "complete",
        payload ->
            """
            {"destinations":[{"version":"%s","index":0},{"version":"%s","index":1}]}\
            """
                .formatted(version, version));

    // Admission resolves the alias once, then starts on the version ARN.
    String resolved =
        client
            .describeStateMachineAlias(b -> b.stateMachineAliasArn(alias))
            .routingConfiguration()
            .getFirst()
            .stateMachineVersionArn();
    String execution =
        client
            .startExecution(
                b -> b.stateMachineArn(resolved).name("wu-1").input("{\"node\":\"parser\"}"))
            .executionArn();

    // The gateway: heartbeats while the module works, then completes the task.
    String work = WORK.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(work).contains("hydrated");
    String token =
        sfn.lambdas
            .invocationsOf("dispatch")
            .getFirst()
            .payload()
            .replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
    sfn.clock.advance(Duration.ofSeconds(25));
    client.sendTaskHeartbeat(b -> b.taskToken(token));
    sfn.clock.advance(Duration.ofSeconds(25));
    client.sendTaskSuccess(b -> b.taskToken(token).output("{\"outcome\":\"OK\"}"));

    DescribeExecutionResponse done = sfn.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.stateMachineVersionArn()).isEqualTo(version);
    assertThat(done.output()).contains("\"work\":{\"outcome\":\"OK\"}");

    // Children were started on the pinned version with deterministic names.
    assertThat(
            client
                .listExecutionsPaginator(b -> b.stateMachineArn(machine).maxResults(1))
                .executions()
                .stream()
                .map(ExecutionListItem::name))
        .containsExactlyInAnyOrder("wu-1", "wu-1-0", "wu-1-1");
    assertThat(
            client
                .listExecutions(
                    b -> b.stateMachineArn(machine).statusFilter(ExecutionStatus.SUCCEEDED))
                .executions())
        .extracting(ExecutionListItem::name)
        .contains("wu-1", "wu-1-0", "wu-1-1");
    assertThat(
            client
                .getExecutionHistoryPaginator(b -> b.executionArn(execution).maxResults(5))
                .events()
                .stream()
                .map(e -> e.type())
                .toList())
        .startsWith(HistoryEventType.EXECUTION_STARTED)
        .contains(HistoryEventType.MAP_STATE_STARTED, HistoryEventType.TASK_SUBMITTED)
        .endsWith(HistoryEventType.EXECUTION_SUCCEEDED);
    assertThat(client.listStateMachines().stateMachines())
        .extracting(StateMachineListItem::name)
        .contains("graph-demo");
    assertThat(client.describeStateMachine(b -> b.stateMachineArn(machine)).definition())
        .isEqualTo(HOP);
  }

  @Test
  void errorsArriveAsTheSdksTypedExceptions() {
    assertThatThrownBy(
            () ->
                sfn.client.createStateMachine(
                    b ->
                        b.name("broken")
                            .roleArn("arn:aws:iam::000000000000:role/sfn")
                            .definition("{\"StartAt\":\"X\",\"States\":{}}")))
        .isInstanceOfSatisfying(
            InvalidDefinitionException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidDefinition");
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.getMessage()).contains("/States");
            });
    assertThatThrownBy(() -> sfn.client.describeExecution(b -> b.executionArn("not-an-arn")))
        .isInstanceOf(InvalidArnException.class);
    assertThatThrownBy(
            () ->
                sfn.client.startExecution(
                    b ->
                        b.stateMachineArn(
                            "arn:aws:states:eu-west-1:123456789012:stateMachine:nope")))
        .isInstanceOfSatisfying(
            SfnException.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("StateMachineDoesNotExist"));
  }
}
