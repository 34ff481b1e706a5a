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
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
import software.amazon.awssdk.services.sfn.model.TaskTimedOutException;

/**
 * Callback tasks ({@code lambda:invoke.waitForTaskToken}) as the AWS guide "Wait for a callback
 * with the task token" documents them: the task pauses until SendTaskSuccess/SendTaskFailure with
 * its token, HeartbeatSeconds expiry fails it with States.HeartbeatTimeout, and a token whose task
 * has closed is refused with TaskTimedOut.
 */
class CallbackTaskTest {

  private static SfnFixture sfn;
  private static final LinkedBlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

  private static final String DEFINITION =
      """
      {"StartAt":"Work","States":{
        "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch",
                        "Payload":{"token.$":"$$.Task.Token","doc.$":"$.doc"}},
          "HeartbeatSeconds":30,"TimeoutSeconds":300,
          "ResultPath":"$.result",
          "Catch":[{"ErrorEquals":["Module.Reject"],"ResultPath":"$.rejected","Next":"Rejected"}],
          "End":true},
        "Rejected":{"Type":"Pass","End":true}}}\
      """;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register(
        "dispatch",
        payload -> {
          TOKENS.add(Json.parse(payload).get("token").asText());
          return "{\"dispatched\":true}";
        });
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  private static String nextToken() throws InterruptedException {
    String token = TOKENS.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(token).as("the dispatch Lambda received a task token").isNotNull();
    return token;
  }

  /** AWS: SendTaskSuccess's output becomes the task's result; the history shows the callback. */
  @Test
  void sendTaskSuccessResumesWithOutput() throws InterruptedException {
    String execution =
        sfn.startExecution(sfn.createMachine("cb-ok", DEFINITION), "{\"doc\":\"d1\"}");
    String token = nextToken();
    assertThat(sfn.client.describeExecution(b -> b.executionArn(execution)).status())
        .isEqualTo(ExecutionStatus.RUNNING);

    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{\"parts\":4}"));

    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(Json.parse(r.output()))
        .isEqualTo(Json.parse("{\"doc\":\"d1\",\"result\":{\"parts\":4}}"));
    assertThat(sfn.client.getExecutionHistory(b -> b.executionArn(execution)).events())
        .extracting(e -> e.type())
        .containsSubsequence(
            HistoryEventType.TASK_SCHEDULED,
            HistoryEventType.TASK_SUBMITTED,
            HistoryEventType.TASK_SUCCEEDED,
            HistoryEventType.EXECUTION_SUCCEEDED);
  }

  /**
   * AWS: a token is good for one completion. Reusing it after the task closed is TaskTimedOut;
   * a token Step Functions never issued is InvalidToken.
   */
  @Test
  void tokenReuseAfterCompletionIsRefused() throws InterruptedException {
    String execution =
        sfn.startExecution(sfn.createMachine("cb-reuse", DEFINITION), "{\"doc\":\"d2\"}");
    String token = nextToken();
    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}"));
    sfn.awaitClosed(execution);

    assertThatThrownBy(() -> sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}")))
        .isInstanceOf(TaskTimedOutException.class);
    assertThatThrownBy(() -> sfn.client.sendTaskFailure(b -> b.taskToken(token).error("E")))
        .isInstanceOf(TaskTimedOutException.class);
    assertThatThrownBy(() -> sfn.client.sendTaskHeartbeat(b -> b.taskToken(token)))
        .isInstanceOf(TaskTimedOutException.class);
    assertThatThrownBy(
            () -> sfn.client.sendTaskSuccess(b -> b.taskToken("never-issued").output("{}")))
        .isInstanceOf(InvalidTokenException.class);
  }

  /** AWS: SendTaskFailure's error name reaches Catch like any task error. */
  @Test
  void sendTaskFailureIsCaughtByName() throws InterruptedException {
    String execution =
        sfn.startExecution(sfn.createMachine("cb-fail", DEFINITION), "{\"doc\":\"d3\"}");
    String token = nextToken();
    sfn.client.sendTaskFailure(b -> b.taskToken(token).error("Module.Reject").cause("bad pdf"));

    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output()).get("rejected"))
        .isEqualTo(Json.parse("{\"Error\":\"Module.Reject\",\"Cause\":\"bad pdf\"}"));
  }

  /**
   * AWS: with HeartbeatSeconds, each SendTaskHeartbeat restarts the heartbeat clock; silence for
   * HeartbeatSeconds fails the task with States.HeartbeatTimeout and closes the token.
   */
  @Test
  void heartbeatExtendsThenExpires() throws InterruptedException {
    String execution =
        sfn.startExecution(sfn.createMachine("cb-heartbeat", DEFINITION), "{\"doc\":\"d4\"}");
    String token = nextToken();
    sfn.awaitTimers(2);

    sfn.clock.advance(Duration.ofSeconds(20));
    sfn.client.sendTaskHeartbeat(b -> b.taskToken(token));
    sfn.clock.advance(Duration.ofSeconds(20));
    assertThat(sfn.client.describeExecution(b -> b.executionArn(execution)).status())
        .as("40 s after dispatch but only 20 s after the heartbeat")
        .isEqualTo(ExecutionStatus.RUNNING);

    sfn.clock.advance(Duration.ofSeconds(10));
    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.HeartbeatTimeout");
    assertThatThrownBy(() -> sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}")))
        .isInstanceOf(TaskTimedOutException.class);
  }

  /**
   * AWS: the Retry of a heartbeat loss re-runs the task with a new token; the old token is dead.
   * This is how a module that stopped heart-beating gets its work re-dispatched.
   */
  @Test
  void retryAfterHeartbeatTimeoutIssuesANewToken() throws InterruptedException {
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "cb-retry",
                """
                {"StartAt":"Work","States":{
                  "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                    "Parameters":{"FunctionName":"dispatch","Payload":{"token.$":"$$.Task.Token"}},
                    "HeartbeatSeconds":30,
                    "Retry":[{"ErrorEquals":["States.HeartbeatTimeout"],"IntervalSeconds":2,
                              "MaxAttempts":1}],
                    "End":true}}}\
                """),
            "{}");
    String first = nextToken();
    sfn.awaitTimers(1);
    sfn.clock.advance(Duration.ofSeconds(30));
    sfn.awaitTimers(1);
    sfn.clock.advance(Duration.ofSeconds(2));
    String second = nextToken();
    assertThat(second).isNotEqualTo(first);
    assertThatThrownBy(() -> sfn.client.sendTaskSuccess(b -> b.taskToken(first).output("{}")))
        .isInstanceOf(TaskTimedOutException.class);
    sfn.client.sendTaskSuccess(b -> b.taskToken(second).output("{\"done\":true}"));
    assertThat(Json.parse(sfn.awaitClosed(execution).output()))
        .isEqualTo(Json.parse("{\"done\":true}"));
  }
}
