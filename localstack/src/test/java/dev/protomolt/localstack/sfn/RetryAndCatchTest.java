package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.asl.Json;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Retry and Catch as the AWS guide "Handling errors in Step Functions workflows" documents them,
 * with retry timing driven by the fake clock.
 */
class RetryAndCatchTest {

  private static SfnFixture sfn;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  /** A function that fails with {@code errorType} the first {@code failures} times. */
  private static String flaky(String name, String errorType, int failures) {
    AtomicInteger calls = new AtomicInteger();
    sfn.lambdas.register(
        name,
        payload -> {
          if (calls.incrementAndGet() <= failures) {
            throw new LambdaInvoker.FunctionError(errorType, "attempt " + calls.get() + " failed");
          }
          return "{\"ok\":" + calls.get() + "}";
        });
    return name;
  }

  /**
   * AWS Retry: the wait before retry n is IntervalSeconds * BackoffRate^(n-1), capped by
   * MaxDelaySeconds; MaxAttempts counts retries after the first attempt.
   */
  @Test
  void retryWaitsFollowBackoffAndMaxDelay() {
    String fn = flaky("backoff", "Module.Busy", 3);
    String arn =
        sfn.createMachine(
            "backoff",
            """
            {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
              "Parameters":{"FunctionName":"%s","Payload.$":"$"},
              "Retry":[{"ErrorEquals":["Module.Busy"],"IntervalSeconds":2,"BackoffRate":3,
                        "MaxAttempts":3,"MaxDelaySeconds":10}],
              "ResultSelector":{"ok.$":"$.Payload.ok","retries.$":"$$.State.RetryCount"},
              "End":true}}}\
            """
                .formatted(fn));
    String execution = sfn.startExecution(arn, "{}");

    long[] expectedWaits = {2, 6, 10};
    for (int retry = 0; retry < expectedWaits.length; retry++) {
      sfn.awaitTimers(1);
      assertThat(sfn.clock.nextDeadline())
          .as("retry %d", retry + 1)
          .contains(sfn.clock.now().plusSeconds(expectedWaits[retry]));
      assertThat(sfn.lambdas.invocationsOf(fn)).hasSize(retry + 1);
      // One second short of the deadline nothing happens.
      sfn.clock.advance(Duration.ofSeconds(expectedWaits[retry] - 1));
      assertThat(sfn.lambdas.invocationsOf(fn)).hasSize(retry + 1);
      sfn.clock.advance(Duration.ofSeconds(1));
    }
    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output())).isEqualTo(Json.parse("{\"ok\":4,\"retries\":3}"));
  }

  /** AWS JitterStrategy FULL: the wait is drawn from [0, computed delay] (fixture draws 0.5). */
  @Test
  void fullJitterScalesTheWait() {
    String fn = flaky("jitter", "Module.Busy", 1);
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "jitter",
                """
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                  "Parameters":{"FunctionName":"%s"},
                  "Retry":[{"ErrorEquals":["States.ALL"],"IntervalSeconds":8,"JitterStrategy":"FULL"}],
                  "End":true}}}\
                """
                    .formatted(fn)),
            "{}");
    sfn.awaitTimers(1);
    assertThat(sfn.clock.nextDeadline()).contains(sfn.clock.now().plusSeconds(4));
    sfn.clock.advance(Duration.ofSeconds(4));
    assertThat(sfn.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
  }

  /**
   * AWS: a Lambda's errorType is the error name; once retries are exhausted, the first catcher
   * whose ErrorEquals matches wins (order matters, States.ALL last), and its ResultPath places
   * {"Error","Cause"} into the state's input.
   */
  @Test
  void exhaustedRetriesFallToFirstMatchingCatcher() {
    String fn = flaky("reject", "Module.Reject", 100);
    DescribeExecutionResponse r =
        sfnRunAdvancing(
            """
            {"StartAt":"T","States":{
              "T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                "Parameters":{"FunctionName":"%s"},
                "Retry":[{"ErrorEquals":["Module.Reject"],"MaxAttempts":1,"IntervalSeconds":1}],
                "Catch":[{"ErrorEquals":["Other.Error"],"Next":"Wrong"},
                         {"ErrorEquals":["Module.Reject"],"ResultPath":"$.failure","Next":"Rejected"},
                         {"ErrorEquals":["States.ALL"],"Next":"Wrong"}],
                "End":true},
              "Wrong":{"Type":"Fail","Error":"Wrong"},
              "Rejected":{"Type":"Pass","End":true}}}\
            """
                .formatted(fn),
            "{\"doc\":\"d1\"}",
            1);

    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode out = Json.parse(r.output());
    assertThat(out.get("doc").asText()).isEqualTo("d1");
    assertThat(out.at("/failure/Error").asText()).isEqualTo("Module.Reject");
    assertThat(Json.parse(out.at("/failure/Cause").asText()).get("errorMessage").asText())
        .isEqualTo("attempt 2 failed");
    assertThat(sfn.lambdas.invocationsOf(fn)).hasSize(2);
  }

  /** AWS: MaxAttempts 0 never retries; the catcher's default ResultPath "$" replaces the input. */
  @Test
  void maxAttemptsZeroAndDefaultCatchResultPath() {
    String fn = flaky("once", "Boom", 100);
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"T","States":{
              "T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                "Parameters":{"FunctionName":"%s"},
                "Retry":[{"ErrorEquals":["Boom"],"MaxAttempts":0}],
                "Catch":[{"ErrorEquals":["States.ALL"],"Next":"Caught"}],"End":true},
              "Caught":{"Type":"Pass","End":true}}}\
            """
                .formatted(fn),
            "{\"doc\":1}");
    assertThat(Json.parse(r.output()).get("Error").asText()).isEqualTo("Boom");
    assertThat(Json.parse(r.output()).has("doc")).isFalse();
    assertThat(sfn.lambdas.invocationsOf(fn)).hasSize(1);
  }

  /**
   * AWS: retriers are per-retrier counted and the first retrier whose ErrorEquals matches applies;
   * States.TaskFailed matches every error except States.Timeout.
   */
  @Test
  void taskFailedDoesNotMatchTimeout() {
    sfn.lambdas.register(
        "slow",
        payload -> {
          try {
            Thread.sleep(SfnFixture.PATIENCE.toMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return "{}";
        });
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "timeout",
                """
                {"StartAt":"T","States":{
                  "T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                    "Parameters":{"FunctionName":"slow"},"TimeoutSeconds":5,
                    "Catch":[{"ErrorEquals":["States.TaskFailed"],"Next":"Wrong"},
                             {"ErrorEquals":["States.Timeout"],"Next":"TimedOut"}],"End":true},
                  "Wrong":{"Type":"Fail","Error":"Wrong"},
                  "TimedOut":{"Type":"Pass","End":true}}}\
                """),
            "{}");
    sfn.awaitTimers(1);
    assertThat(sfn.clock.nextDeadline()).contains(sfn.clock.now().plusSeconds(5));
    sfn.clock.advance(Duration.ofSeconds(5));
    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output()).get("Error").asText()).isEqualTo("States.Timeout");
  }

  /** AWS: States.ALL does not catch States.Runtime; the execution fails. */
  @Test
  void statesAllDoesNotCatchRuntimeErrors() {
    sfn.lambdas.register("fine", payload -> "{}");
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"T","States":{
              "T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                "Parameters":{"FunctionName":"fine","Payload.$":"$.absent"},
                "Retry":[{"ErrorEquals":["States.ALL"]}],
                "Catch":[{"ErrorEquals":["States.ALL"],"Next":"Caught"}],"End":true},
              "Caught":{"Type":"Pass","End":true}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.Runtime");
  }

  /** AWS: an unknown function surfaces as Lambda.ResourceNotFoundException, catchable by name. */
  @Test
  void unknownFunctionIsResourceNotFound() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
              "Parameters":{"FunctionName":"nobody"},"End":true}}}\
            """,
            "{}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("Lambda.ResourceNotFoundException");
  }

  /** Runs a definition, advancing the fake clock by {@code step} seconds whenever it waits. */
  private static DescribeExecutionResponse sfnRunAdvancing(
      String definition, String input, int step) {
    String arn = sfn.createMachine("m-" + UUID.randomUUID(), definition);
    String execution = sfn.startExecution(arn, input);
    while (sfn.client.describeExecution(b -> b.executionArn(execution)).status()
        == ExecutionStatus.RUNNING) {
      if (sfn.clock.nextDeadline().isPresent()) {
        sfn.clock.advance(Duration.ofSeconds(step));
      } else {
        Thread.onSpinWait();
      }
    }
    return sfn.awaitClosed(execution);
  }
}
