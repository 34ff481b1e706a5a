package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.sfn.asl.Json;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.sfn.model.InvalidDefinitionException;
import software.amazon.awssdk.services.sfn.model.RoutingConfigurationListItem;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.TaskTimedOutException;

/** Execution-level API behaviour from the AWS Step Functions API reference. */
class ExecutionApiTest {

  private static SfnFixture sfn;
  private static final LinkedBlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();
  private static final String WAITING =
      """
      {"StartAt":"Work","States":{"Work":{"Type":"Task",
        "Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
        "Parameters":{"FunctionName":"park","Payload":{"token.$":"$$.Task.Token"}},
        "End":true}}}\
      """;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register(
        "park",
        payload -> {
          TOKENS.add(Json.parse(payload).get("token").asText());
          return "{}";
        });
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  private static String nextToken() throws InterruptedException {
    String token = TOKENS.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(token).isNotNull();
    return token;
  }

  /**
   * AWS StartExecution: same name and input as an open execution returns that execution; a
   * different input is ExecutionAlreadyExists; once the execution has closed, the name is taken
   * whatever the input.
   */
  @Test
  void executionNameIdempotency() throws InterruptedException {
    String machine = sfn.createMachine("idem", WAITING);
    StartExecutionResponse first =
        sfn.client.startExecution(
            b -> b.stateMachineArn(machine).name("child-1").input("{\"a\":1}"));
    String token = nextToken();
    StartExecutionResponse again =
        sfn.client.startExecution(
            b -> b.stateMachineArn(machine).name("child-1").input("{ \"a\" : 1 }"));

    assertThat(again.executionArn()).isEqualTo(first.executionArn());
    assertThat(again.startDate()).isEqualTo(first.startDate());
    assertThat(TOKENS).as("no second execution ran").isEmpty();
    assertThatThrownBy(
            () ->
                sfn.client.startExecution(
                    b -> b.stateMachineArn(machine).name("child-1").input("{\"a\":2}")))
        .isInstanceOf(ExecutionAlreadyExistsException.class);

    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}"));
    sfn.awaitClosed(first.executionArn());
    assertThatThrownBy(
            () ->
                sfn.client.startExecution(
                    b -> b.stateMachineArn(machine).name("child-1").input("{\"a\":1}")))
        .isInstanceOf(ExecutionAlreadyExistsException.class);
  }

  /** AWS StopExecution: the execution is ABORTED and its waiting task token is dead. */
  @Test
  void stopExecutionAbortsAndClosesTokens() throws InterruptedException {
    String execution = sfn.startExecution(sfn.createMachine("stop", WAITING), "{}");
    String token = nextToken();
    sfn.client.stopExecution(
        b -> b.executionArn(execution).error("Operator.Stop").cause("replayed elsewhere"));

    DescribeExecutionResponse r = sfn.client.describeExecution(b -> b.executionArn(execution));
    assertThat(r.status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(r.error()).isEqualTo("Operator.Stop");
    assertThat(r.stopDate()).isNotNull();
    assertThatThrownBy(() -> sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}")))
        .isInstanceOf(TaskTimedOutException.class);
    assertThat(sfn.client.getExecutionHistory(b -> b.executionArn(execution)).events())
        .extracting(e -> e.type())
        .last()
        .isEqualTo(HistoryEventType.EXECUTION_ABORTED);
    assertThatThrownBy(
            () ->
                sfn.client.describeExecution(
                    b ->
                        b.executionArn(
                            execution.replace("execution:stop:", "execution:stop:nope"))))
        .isInstanceOf(ExecutionDoesNotExistException.class);
  }

  /** AWS: the top-level TimeoutSeconds ends the execution as TIMED_OUT with States.Timeout. */
  @Test
  void executionTimeoutSeconds() throws InterruptedException {
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "exec-timeout",
                """
                {"TimeoutSeconds":60,"StartAt":"Work","States":{"Work":{"Type":"Task",
                  "Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                  "Parameters":{"FunctionName":"park","Payload":{"token.$":"$$.Task.Token"}},
                  "End":true}}}\
                """),
            "{}");
    nextToken();
    sfn.awaitTimers(1);
    sfn.clock.advance(Duration.ofSeconds(60));
    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
    assertThat(r.error()).isEqualTo("States.Timeout");
  }

  /**
   * Graph version pinning: executions start on a version ARN or an alias ARN and run that
   * version's definition, whatever the state machine has been updated to since.
   */
  @Test
  void versionsAndAliasesPinTheDefinition() {
    String machine =
        sfn.client
            .createStateMachine(
                b ->
                    b.name("pinned")
                        .publish(true)
                        .roleArn("arn:aws:iam::000000000000:role/test")
                        .definition(
                            "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Result\":1,"
                                + "\"End\":true}}}"))
            .stateMachineArn();
    String v1 = machine + ":1";
    String v2 =
        sfn.client
            .updateStateMachine(
                b ->
                    b.stateMachineArn(machine)
                        .publish(true)
                        .definition(
                            "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Result\":2,"
                                + "\"End\":true}}}"))
            .stateMachineVersionArn();
    assertThat(v2).isEqualTo(machine + ":2");
    // Publishing an unchanged revision returns the latest version, as AWS does.
    assertThat(
            sfn.client
                .publishStateMachineVersion(b -> b.stateMachineArn(machine))
                .stateMachineVersionArn())
        .isEqualTo(v2);
    String alias =
        sfn.client
            .createStateMachineAlias(
                b ->
                    b.name("active")
                        .routingConfiguration(
                            RoutingConfigurationListItem.builder()
                                .stateMachineVersionArn(v1)
                                .weight(100)
                                .build()))
            .stateMachineAliasArn();
    assertThat(alias).isEqualTo(machine + ":active");

    assertThat(Json.parse(sfn.awaitClosed(sfn.startExecution(alias, "{}")).output()).asInt())
        .isEqualTo(1);
    sfn.client.updateStateMachineAlias(
        b ->
            b.stateMachineAliasArn(alias)
                .routingConfiguration(
                    RoutingConfigurationListItem.builder()
                        .stateMachineVersionArn(v2)
                        .weight(100)
                        .build()));
    DescribeExecutionResponse viaAlias = sfn.awaitClosed(sfn.startExecution(alias, "{}"));
    assertThat(Json.parse(viaAlias.output()).asInt()).isEqualTo(2);
    assertThat(viaAlias.stateMachineAliasArn()).isEqualTo(alias);
    assertThat(viaAlias.stateMachineVersionArn()).isEqualTo(v2);
    DescribeExecutionResponse viaVersion = sfn.awaitClosed(sfn.startExecution(v1, "{}"));
    assertThat(Json.parse(viaVersion.output()).asInt()).isEqualTo(1);
    assertThat(viaVersion.stateMachineVersionArn()).isEqualTo(v1);

    assertThat(sfn.client.describeStateMachine(b -> b.stateMachineArn(v1)).definition())
        .contains("\"Result\":1");
    assertThat(
            sfn.client
                .describeStateMachineAlias(b -> b.stateMachineAliasArn(alias))
                .routingConfiguration()
                .getFirst()
                .stateMachineVersionArn())
        .isEqualTo(v2);
    // Listing by version includes executions routed to it through an alias.
    assertThat(sfn.client.listExecutions(b -> b.stateMachineArn(v1)).executions()).hasSize(2);
    assertThat(sfn.client.listExecutions(b -> b.stateMachineArn(alias)).executions()).hasSize(2);
    assertThat(sfn.client.listExecutions(b -> b.stateMachineArn(machine)).executions()).hasSize(3);
    assertThatThrownBy(() -> sfn.startExecution(machine + ":9", "{}"))
        .isInstanceOf(StateMachineDoesNotExistException.class);
  }

  /**
   * AWS states:startExecution (request-response): the task returns ExecutionArn and StartDate at
   * once; a second start with the same name and input while the child runs is idempotent, and
   * ExecutionAlreadyExists surfaces as StepFunctions.ExecutionAlreadyExistsException.
   */
  @Test
  void startExecutionTaskStartsNamedChildren() throws InterruptedException {
    String child = sfn.createMachine("child", WAITING);
    String parent =
        sfn.createMachine(
            "parent",
            """
            {"StartAt":"Fan","States":{
              "Fan":{"Type":"Map","ItemsPath":"$.names","ItemProcessor":{"StartAt":"Start",
                "States":{"Start":{"Type":"Task","Resource":"arn:aws:states:::states:startExecution",
                  "Parameters":{"StateMachineArn":"%s","Name.$":"$","Input":{"from":"parent"}},
                  "End":true}}},
                "ResultPath":"$.started","Next":"Again"},
              "Again":{"Type":"Task","Resource":"arn:aws:states:::states:startExecution",
                "Parameters":{"StateMachineArn":"%s","Name":"c1","Input":{"other":true}},
                "Catch":[{"ErrorEquals":["StepFunctions.ExecutionAlreadyExistsException"],
                          "ResultPath":"$.again","Next":"Done"}],
                "End":true},
              "Done":{"Type":"Pass","End":true}}}\
            """
                .formatted(child, child));
    DescribeExecutionResponse r =
        sfn.awaitClosed(sfn.startExecution(parent, "{\"names\":[\"c1\",\"c2\",\"c1\"]}"));

    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    var out = Json.parse(r.output());
    assertThat(out.at("/started/0/ExecutionArn").asText()).endsWith(":execution:child:c1");
    assertThat(out.at("/started/2/ExecutionArn").asText())
        .isEqualTo(out.at("/started/0/ExecutionArn").asText());
    assertThat(out.at("/started/1/StartDate").isNumber()).isTrue();
    assertThat(out.at("/again/Error").asText())
        .isEqualTo("StepFunctions.ExecutionAlreadyExistsException");
    assertThat(sfn.client.listExecutions(b -> b.stateMachineArn(child)).executions()).hasSize(2);
    DescribeExecutionResponse c1 =
        sfn.client.describeExecution(
            b -> b.executionArn(out.at("/started/0/ExecutionArn").asText()));
    assertThat(Json.parse(c1.input())).isEqualTo(Json.parse("{\"from\":\"parent\"}"));
    nextToken();
    nextToken();
  }

  /** AWS CreateStateMachine: an invalid definition is InvalidDefinition, naming what is wrong. */
  @Test
  void unsupportedConstructIsRejectedAtCreateTime() {
    assertThatThrownBy(
            () ->
                sfn.createMachine(
                    "bad",
                    """
                    {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":5,"End":true}}}\
                    """))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("state type 'Wait' in state 'W'")
        .hasMessageContaining("/States/W/Type");
  }

  /** A port already taken is a clear start-up error naming the port. */
  @Test
  void portInUseIsNamed() {
    int taken = sfn.runtime.endpoint().getPort();
    assertThatThrownBy(
            () -> LocalStepFunctions.start(taken, sfn.dataSource, sfn.lambdas, sfn.clock))
        .hasMessageContaining("port " + taken + " is already in use");
  }
}
