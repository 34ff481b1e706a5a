package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.sfn.asl.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionNotRedrivableException;
import software.amazon.awssdk.services.sfn.model.ExecutionRedriveFilter;
import software.amazon.awssdk.services.sfn.model.ExecutionRedriveStatus;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.sfn.model.RedriveExecutionResponse;

/**
 * RedriveExecution as the AWS API reference describes it: a FAILED, ABORTED or TIMED_OUT Standard
 * execution continues from the state it stopped in, under the same ARN, with the steps that
 * succeeded before kept and not run again; {@code redriveCount} and {@code redriveDate} say so in
 * DescribeExecution and ListExecutions; anything else is refused with ExecutionNotRedrivable.
 */
class RedriveExecutionTest {

  private static SfnFixture sfn;
  private static final AtomicBoolean BROKEN = new AtomicBoolean();
  private static final LinkedBlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

  /** Three hops; the middle one fails while {@link #BROKEN} is set. */
  private static final String THREE_HOPS =
      """
      {"StartAt":"Parse","States":{
        "Parse":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
          "Parameters":{"FunctionName":"parse","Payload.$":"$"},
          "ResultSelector":{"parsed.$":"$.Payload.parsed"},"ResultPath":"$.parse","Next":"Chunk"},
        "Chunk":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
          "Parameters":{"FunctionName":"chunk","Payload.$":"$"},
          "Retry":[{"ErrorEquals":["Module.Broken"],"IntervalSeconds":1,"MaxAttempts":1}],
          "ResultSelector":{"chunks.$":"$.Payload.chunks","redrives.$":"$$.Execution.RedriveCount"},
          "ResultPath":"$.chunk","Next":"Sink"},
        "Sink":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
          "Parameters":{"FunctionName":"sink","Payload.$":"$"},
          "ResultSelector":{"stored.$":"$.Payload.stored"},"ResultPath":"$.sink","End":true}}}\
      """;

  /** One callback task, optionally under an execution timeout. */
  private static final String CALLBACK =
      """
      {"StartAt":"Work",%s"States":{
        "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{"token.$":"$$.Task.Token"}},
          "ResultPath":"$.result","End":true}}}\
      """;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register("parse", payload -> "{\"parsed\":true}");
    sfn.lambdas.register(
        "chunk",
        payload -> {
          if (BROKEN.get()) {
            throw new LambdaInvoker.FunctionError("Module.Broken", "the chunker is misconfigured");
          }
          return "{\"chunks\":3}";
        });
    sfn.lambdas.register("sink", payload -> "{\"stored\":true}");
    sfn.lambdas.register(
        "dispatch",
        payload -> {
          TOKENS.add(Json.parse(payload).get("token").asText());
          return "{}";
        });
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  @Test
  void failedExecutionContinuesFromTheFailedStateUnderTheSameArn() {
    String machine = sfn.createMachine("redrive-hops", THREE_HOPS);
    int parsedBefore = sfn.lambdas.invocationsOf("parse").size();
    int chunkedBefore = sfn.lambdas.invocationsOf("chunk").size();
    int sunkBefore = sfn.lambdas.invocationsOf("sink").size();
    BROKEN.set(true);
    String execution = sfn.startExecution(machine, "{\"doc\":\"d1\"}");
    // The one retry waits a second on the fake clock before the execution fails for good.
    sfn.awaitTimers(1);
    sfn.clock.advance(Duration.ofSeconds(1));
    DescribeExecutionResponse failed = sfn.awaitClosed(execution);
    assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(failed.error()).isEqualTo("Module.Broken");
    assertThat(failed.redriveCount()).isZero();
    assertThat(failed.redriveStatus()).isEqualTo(ExecutionRedriveStatus.REDRIVABLE);

    BROKEN.set(false);
    RedriveExecutionResponse redriven = sfn.client.redriveExecution(b -> b.executionArn(execution));
    assertThat(redriven.redriveDate()).isEqualTo(sfn.clock.now());
    DescribeExecutionResponse done = sfn.awaitClosed(execution);

    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.executionArn()).isEqualTo(execution);
    assertThat(done.redriveCount()).isEqualTo(1);
    assertThat(done.redriveDate()).isEqualTo(redriven.redriveDate());
    assertThat(done.error()).isNull();
    // Parse succeeded before the failure: it ran once, and its result reached the sink anyway.
    assertThat(sfn.lambdas.invocationsOf("parse")).hasSize(parsedBefore + 1);
    // Chunk: first attempt and its retry failed, the redrive's attempt succeeded.
    assertThat(sfn.lambdas.invocationsOf("chunk")).hasSize(chunkedBefore + 3);
    assertThat(sfn.lambdas.invocationsOf("sink")).hasSize(sunkBefore + 1);
    assertThat(Json.parse(done.output()))
        .isEqualTo(
            Json.parse(
                "{\"doc\":\"d1\",\"parse\":{\"parsed\":true},"
                    + "\"chunk\":{\"chunks\":3,\"redrives\":1},\"sink\":{\"stored\":true}}"));

    List<HistoryEvent> events =
        sfn.client.getExecutionHistory(b -> b.executionArn(execution)).events();
    List<HistoryEventType> types = events.stream().map(HistoryEvent::type).toList();
    int failedAt = types.indexOf(HistoryEventType.EXECUTION_FAILED);
    assertThat(types.subList(failedAt, failedAt + 3))
        .containsExactly(
            HistoryEventType.EXECUTION_FAILED,
            HistoryEventType.EXECUTION_REDRIVEN,
            HistoryEventType.TASK_STATE_ENTERED);
    assertThat(events.get(failedAt + 1).executionRedrivenEventDetails().redriveCount())
        .isEqualTo(1);
    assertThat(events.get(failedAt + 2).stateEnteredEventDetails().name()).isEqualTo("Chunk");
    assertThat(types).containsOnlyOnce(HistoryEventType.EXECUTION_STARTED);
    assertThat(types.getLast()).isEqualTo(HistoryEventType.EXECUTION_SUCCEEDED);
    assertThat(events).extracting(HistoryEvent::id).isSorted().doesNotHaveDuplicates();

    assertThat(listed(machine, ExecutionRedriveFilter.REDRIVEN))
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.executionArn()).isEqualTo(execution);
              assertThat(item.redriveCount()).isEqualTo(1);
              assertThat(item.redriveDate()).isEqualTo(redriven.redriveDate());
            });
    assertThat(listed(machine, ExecutionRedriveFilter.NOT_REDRIVEN)).isEmpty();

    // Succeeded now: a second redrive is refused, in AWS's words.
    assertThat(sfn.client.describeExecution(b -> b.executionArn(execution)).redriveStatusReason())
        .isEqualTo("Execution is SUCCEEDED and cannot be redriven");
    assertThatThrownBy(() -> sfn.client.redriveExecution(b -> b.executionArn(execution)))
        .isInstanceOf(ExecutionNotRedrivableException.class)
        .hasMessageContaining("Execution is SUCCEEDED and cannot be redriven");
  }

  @Test
  void abortedExecutionWaitsOnANewTaskTokenAfterTheRedrive() throws InterruptedException {
    String machine = sfn.createMachine("redrive-aborted", CALLBACK.formatted(""));
    String execution = sfn.startExecution(machine, "{\"doc\":\"d2\"}");
    String first = nextToken();
    assertThatThrownBy(() -> sfn.client.redriveExecution(b -> b.executionArn(execution)))
        .isInstanceOf(ExecutionNotRedrivableException.class)
        .hasMessageContaining("Execution is RUNNING and cannot be redriven");
    sfn.client.stopExecution(b -> b.executionArn(execution).error("Operator.Stop"));
    assertThat(sfn.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.ABORTED);

    sfn.client.redriveExecution(b -> b.executionArn(execution).clientToken("once"));
    // The SDK retrying the same call (same client token) is the same redrive, not a second one.
    sfn.client.redriveExecution(b -> b.executionArn(execution).clientToken("once"));
    String second = nextToken();
    assertThat(second).isNotEqualTo(first);
    sfn.client.sendTaskSuccess(b -> b.taskToken(second).output("{\"ok\":true}"));

    DescribeExecutionResponse done = sfn.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.redriveCount()).isEqualTo(1);
    assertThat(Json.parse(done.output()).path("result").path("ok").asBoolean()).isTrue();
  }

  @Test
  void timedOutExecutionGetsAFreshTimeoutFromTheRedrive() throws InterruptedException {
    String machine =
        sfn.createMachine("redrive-timeout", CALLBACK.formatted("\"TimeoutSeconds\":60,"));
    String execution = sfn.startExecution(machine, "{}");
    nextToken();
    sfn.clock.advance(Duration.ofSeconds(60));
    assertThat(sfn.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.TIMED_OUT);

    sfn.clock.advance(Duration.ofHours(1));
    sfn.client.redriveExecution(b -> b.executionArn(execution));
    String token = nextToken();
    // 59 s after the redrive it is still running; the original start is long past its timeout.
    sfn.clock.advance(Duration.ofSeconds(59));
    assertThat(sfn.client.describeExecution(b -> b.executionArn(execution)).status())
        .isEqualTo(ExecutionStatus.RUNNING);
    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}"));
    assertThat(sfn.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
  }

  @Test
  void executionsStoppedMoreThanFourteenDaysAgoAreNotRedrivable() throws InterruptedException {
    String machine = sfn.createMachine("redrive-window", CALLBACK.formatted(""));
    String execution = sfn.startExecution(machine, "{}");
    nextToken();
    sfn.client.stopExecution(b -> b.executionArn(execution));
    sfn.awaitClosed(execution);

    sfn.clock.advance(Duration.ofDays(14).plusSeconds(1));
    DescribeExecutionResponse old = sfn.client.describeExecution(b -> b.executionArn(execution));
    assertThat(old.redriveStatus()).isEqualTo(ExecutionRedriveStatus.NOT_REDRIVABLE);
    assertThat(old.redriveStatusReason()).contains("more than 14 days ago");
    assertThatThrownBy(() -> sfn.client.redriveExecution(b -> b.executionArn(execution)))
        .isInstanceOf(ExecutionNotRedrivableException.class)
        .hasMessageContaining("more than 14 days ago");
    assertThat(sfn.client.describeExecution(b -> b.executionArn(execution)).status())
        .isEqualTo(ExecutionStatus.ABORTED);
  }

  @Test
  void unknownExecutionsAndFiltersAreRefused() {
    String machine = sfn.createMachine("redrive-unknown", THREE_HOPS);
    String missing = machine.replace(":stateMachine:", ":execution:") + ":nope";
    assertThatThrownBy(() -> sfn.client.redriveExecution(b -> b.executionArn(missing)))
        .isInstanceOf(ExecutionDoesNotExistException.class)
        .hasMessageContaining(missing);
    assertThatThrownBy(
            () ->
                sfn.client.listExecutions(
                    b -> b.stateMachineArn(machine).redriveFilter("SOMETIMES")))
        .hasMessageContaining("redriveFilter must be one of [NOT_REDRIVEN, REDRIVEN]");
  }

  @Test
  void aRedrivenExecutionWaitingOnItsTokenSurvivesARestart() throws InterruptedException {
    String machine = sfn.createMachine("redrive-restart", CALLBACK.formatted(""));
    String execution = sfn.startExecution(machine, "{}");
    nextToken();
    sfn.client.stopExecution(b -> b.executionArn(execution));
    sfn.awaitClosed(execution);
    sfn.client.redriveExecution(b -> b.executionArn(execution));
    String token = nextToken();
    SfnFixture.awaitTrue(
        () -> sfn.client.describeExecution(b -> b.executionArn(execution)).redriveCount() == 1,
        "the redrive is recorded");

    sfn.restart();
    sfn.client.sendTaskSuccess(b -> b.taskToken(token).output("{}"));
    DescribeExecutionResponse done = sfn.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(done.redriveCount()).isEqualTo(1);
  }

  private static List<ExecutionListItem> listed(String machine, ExecutionRedriveFilter filter) {
    return sfn.client
        .listExecutions(b -> b.stateMachineArn(machine).redriveFilter(filter))
        .executions();
  }

  private static String nextToken() throws InterruptedException {
    String token = TOKENS.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(token).as("the dispatch Lambda received a task token").isNotNull();
    return token;
  }
}
