package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.sfn.asl.Json;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Durability (decision 0451): executions live in Postgres, so a restart of the runtime resumes
 * them. A waiting task token survives; a retry wait resumes with its due time; any other state in
 * progress is re-entered from its checkpoint with its retry counters.
 */
class RestartTest {

  private SfnFixture sfn;
  private final LinkedBlockingQueue<String> tokens = new LinkedBlockingQueue<>();

  @BeforeEach
  void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register(
        "park",
        payload -> {
          tokens.add(Json.parse(payload).get("token").asText());
          return "{}";
        });
  }

  @AfterEach
  void stop() {
    sfn.close();
  }

  @Test
  void waitingTaskTokenSurvivesARestart() throws InterruptedException {
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "durable",
                """
                {"StartAt":"Before","States":{
                  "Before":{"Type":"Pass","Result":{"step":1},"ResultPath":"$.before","Next":"Work"},
                  "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                    "Parameters":{"FunctionName":"park","Payload":{"token.$":"$$.Task.Token"}},
                    "HeartbeatSeconds":30,"ResultPath":"$.work","End":true}}}\
                """),
            "{\"doc\":\"d\"}");
    String token = tokens.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(token).isNotNull();

    sfn.restart();
    sfn.clock.advance(Duration.ofSeconds(10));
    sfn.client.sendTaskHeartbeat(b -> b.taskToken(token));
    sfn.clock.advance(Duration.ofSeconds(25));
    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{\"ok\":true}"));

    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output()))
        .isEqualTo(Json.parse("{\"doc\":\"d\",\"before\":{\"step\":1},\"work\":{\"ok\":true}}"));
    assertThat(sfn.lambdas.invocationsOf("park"))
        .as("resumed without dispatching again")
        .hasSize(1);
    var ids =
        sfn.client.getExecutionHistory(b -> b.executionArn(execution)).events().stream()
            .map(HistoryEvent::id)
            .toList();
    assertThat(ids)
        .as("history ids continue across the restart")
        .isSorted()
        .doesNotHaveDuplicates();
  }

  @Test
  void heartbeatDeadlineKeepsRunningAcrossARestart() throws InterruptedException {
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "hb-durable",
                """
                {"StartAt":"Work","States":{
                  "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                    "Parameters":{"FunctionName":"park","Payload":{"token.$":"$$.Task.Token"}},
                    "HeartbeatSeconds":30,"End":true}}}\
                """),
            "{}");
    assertThat(tokens.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isNotNull();
    sfn.clock.advance(Duration.ofSeconds(20));
    sfn.restart();
    sfn.awaitTimers(1);
    assertThat(sfn.clock.nextDeadline())
        .as("the persisted deadline, not a fresh 30 s")
        .contains(SfnFixture.EPOCH.plusSeconds(30));
    sfn.clock.advance(Duration.ofSeconds(10));
    assertThat(sfn.awaitClosed(execution).error()).isEqualTo("States.HeartbeatTimeout");
  }

  @Test
  void retryCountersSurviveARestart() {
    sfn.lambdas.register(
        "broken",
        payload -> {
          throw new LambdaInvoker.FunctionError("Module.Busy", "still busy");
        });
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "retry-durable",
                """
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                  "Parameters":{"FunctionName":"broken"},
                  "Retry":[{"ErrorEquals":["Module.Busy"],"IntervalSeconds":10,"MaxAttempts":2}],
                  "End":true}}}\
                """),
            "{}");
    sfn.awaitTimers(1);
    assertThat(sfn.lambdas.invocationsOf("broken")).hasSize(1);

    // Restart 4 s into the first 10 s retry wait: the wait resumes with its persisted due time
    // and the retry counter already spent.
    sfn.clock.advance(Duration.ofSeconds(4));
    sfn.restart();
    sfn.awaitTimers(1);
    assertThat(sfn.clock.nextDeadline()).contains(SfnFixture.EPOCH.plusSeconds(10));
    assertThat(sfn.lambdas.invocationsOf("broken")).hasSize(1);
    sfn.clock.advance(Duration.ofSeconds(6));
    sfn.awaitTimers(1);
    assertThat(sfn.lambdas.invocationsOf("broken")).hasSize(2);
    assertThat(sfn.clock.nextDeadline())
        .as("second retry waits 10 * 2^1 s")
        .contains(sfn.clock.now().plusSeconds(20));
    sfn.clock.advance(Duration.ofSeconds(20));

    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.error()).isEqualTo("Module.Busy");
    assertThat(sfn.lambdas.invocationsOf("broken")).as("first attempt + MaxAttempts 2").hasSize(3);
  }
}
