package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.sfn.asl.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The inline Map state as the AWS guide "Map state in inline mode" documents it: ItemsPath picks
 * the array, ItemSelector builds each item's input with $$.Map.Item.Index/Value, results come
 * back in item order, MaxConcurrency bounds parallel iterations, and a failing iteration fails
 * the Map.
 */
class MapStateTest {

  private static SfnFixture sfn;

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  @Test
  void itemSelectorContextAndOrderedResults() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"Fan","States":{"Fan":{"Type":"Map","ItemsPath":"$.dests",
              "ItemSelector":{"index.$":"$$.Map.Item.Index","dest.$":"$$.Map.Item.Value",
                              "doc.$":"$.doc"},
              "ItemProcessor":{"ProcessorConfig":{"Mode":"INLINE"},"StartAt":"Name",
                "States":{"Name":{"Type":"Pass",
                  "Parameters":{"name.$":"States.Format('{}-{}', $.doc, $.index)","to.$":"$.dest"},
                  "End":true}}},
              "ResultPath":"$.children","End":true}}}\
            """,
            "{\"doc\":\"d\",\"dests\":[\"a\",\"b\",\"c\"]}");

    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output()).get("children"))
        .isEqualTo(
            Json.parse(
                """
                [{"name":"d-0","to":"a"},{"name":"d-1","to":"b"},{"name":"d-2","to":"c"}]\
                """));
  }

  /**
   * AWS: MaxConcurrency 2 means at most two iterations run at the same time. Each iteration holds
   * until the test releases it, and the test releases one only once the next has started, so with
   * the bound the runtime always has two iterations held when a new one starts. An iteration
   * started while two were still held would raise the in-flight count to three, which the lambda
   * records at the moment it happens; no wait is needed to see that nothing else started.
   */
  @Test
  void maxConcurrencyBoundsParallelIterations() {
    int items = 5;
    List<CountDownLatch> release = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      release.add(new CountDownLatch(1));
    }
    // How many iterations the test had released when each one started, in start order.
    List<Integer> releasedAtStart = new CopyOnWriteArrayList<>();
    AtomicInteger released = new AtomicInteger();
    sfn.lambdas.register(
        "hold",
        payload -> {
          releasedAtStart.add(released.get());
          int item = Integer.parseInt(payload.trim());
          try {
            release.get(item - 1).await(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return payload;
        });
    String execution =
        sfn.startExecution(
            sfn.createMachine(
                "map-conc",
                """
                {"StartAt":"Fan","States":{"Fan":{"Type":"Map","MaxConcurrency":2,
                  "Iterator":{"StartAt":"Hold","States":{"Hold":{"Type":"Task",
                    "Resource":"arn:aws:states:::lambda:invoke",
                    "Parameters":{"FunctionName":"hold","Payload.$":"$"},
                    "OutputPath":"$.Payload","End":true}}},
                  "End":true}}}\
                """),
            "[1,2,3,4,5]");

    SfnFixture.awaitTrue(() -> sfn.lambdas.inFlight.get() >= 2, "two iterations in flight");
    // Items start in order, so releasing item k frees the permit item k + 2 waits for.
    for (int k = 1; k <= items; k++) {
      int startedSoFar = Math.min(k + 1, items);
      SfnFixture.awaitTrue(
          () -> releasedAtStart.size() >= startedSoFar, startedSoFar + " iterations started");
      assertThat(sfn.lambdas.maxInFlight.get())
          .as("iterations at once after %d of %d released", k - 1, items)
          .isEqualTo(2);
      released.incrementAndGet();
      release.get(k - 1).countDown();
    }

    DescribeExecutionResponse r = sfn.awaitClosed(execution);
    assertThat(Json.parse(r.output())).isEqualTo(Json.parse("[1,2,3,4,5]"));
    assertThat(sfn.lambdas.maxInFlight.get()).isEqualTo(2);
    assertThat(releasedAtStart)
        .as("the third iteration waits for one release, the fourth for two, the fifth for three")
        .containsExactly(0, 0, 1, 2, 3);
  }

  /** AWS: an iteration's error fails the Map with that error, which the Map's Catch handles. */
  @Test
  void failingIterationFailsTheMapWithItsError() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"Fan","States":{
              "Fan":{"Type":"Map","ItemsPath":"$.items","ItemProcessor":{"StartAt":"Check","States":{
                  "Check":{"Type":"Choice","Choices":[
                    {"Variable":"$","NumericGreaterThan":2,"Next":"Bad"}],"Default":"Ok"},
                  "Bad":{"Type":"Fail","Error":"Item.TooBig","Cause":"over 2"},
                  "Ok":{"Type":"Succeed"}}},
                "Catch":[{"ErrorEquals":["Item.TooBig"],"ResultPath":"$.error","Next":"Caught"}],
                "ResultPath":"$.results","End":true},
              "Caught":{"Type":"Pass","End":true}}}\
            """,
            "{\"items\":[1,2,3]}");

    assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(r.output()).at("/error/Error").asText()).isEqualTo("Item.TooBig");
    assertThat(Json.parse(r.output()).has("results")).isFalse();
  }

  /** AWS: ItemsPath that selects something other than an array fails with States.Runtime. */
  @Test
  void itemsPathMustSelectAnArray() {
    DescribeExecutionResponse r =
        sfn.run(
            """
            {"StartAt":"Fan","States":{"Fan":{"Type":"Map","ItemsPath":"$.x",
              "ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},
              "End":true}}}\
            """,
            "{\"x\":{}}");
    assertThat(r.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(r.error()).isEqualTo("States.Runtime");
  }
}
