package dev.protomolt.localstack.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.lambda.ContainerPool;
import dev.protomolt.localstack.lambda.LambdaContext;
import dev.protomolt.testsupport.Eventually;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BoundedFunctionTest {

  private static final LambdaContext CONTEXT = new LambdaContext("fn", "req", "arn:fn");

  private final Semaphore entered = new Semaphore(0);

  /** One container at most, whose every run sleeps for the event's milliseconds. */
  private ContainerPool oneSleepingContainer() {
    return new ContainerPool(
        () ->
            new ContainerPool.Container() {
              @Override
              public String handle(String event, LambdaContext context) throws Exception {
                entered.release();
                Thread.sleep(Long.parseLong(event));
                return "slept " + event;
              }

              @Override
              public void close() {}
            },
        1);
  }

  @Test
  void waitingForAContainerIsNotCountedInTheTimeout() throws Exception {
    // Each run takes well under the timeout; the second waits for the first, so wait and run
    // together exceed it, which Lambda would not count (it throttles instead of queueing).
    ContainerPool pool = oneSleepingContainer();
    try (BoundedFunction function =
            new BoundedFunction("fn", pool, Duration.ofSeconds(4), OptionalInt.empty());
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<String> first = callers.submit(() -> function.handle("2500", CONTEXT));
      assertThat(entered.tryAcquire(30, TimeUnit.SECONDS)).as("the first run started").isTrue();
      Future<String> second = callers.submit(() -> function.handle("2500", CONTEXT));
      Eventually.until(
          "the second invocation waits for the container",
          () -> pool.waiting() == 1 || second.isDone());
      assertThat(first.get()).isEqualTo("slept 2500");
      assertThat(second.get()).isEqualTo("slept 2500");
    }
  }

  @Test
  void aRunLongerThanTheTimeoutStillFailsAsLambdaFailsIt() throws Exception {
    try (BoundedFunction function =
        new BoundedFunction(
            "fn", oneSleepingContainer(), Duration.ofSeconds(1), OptionalInt.empty())) {
      assertThatThrownBy(() -> function.handle("30000", CONTEXT))
          .isInstanceOf(BoundedFunction.FunctionTimeoutException.class)
          .hasMessage("Task timed out after 1.00 seconds");
      // The cancelled run gave its container back: the next invocation gets it.
      assertThat(function.handle("1", CONTEXT)).isEqualTo("slept 1");
    }
  }
}
