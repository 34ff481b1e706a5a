package dev.protomolt.localstack.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.testsupport.Eventually;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ContainerPoolTest {

  private static final LambdaContext CONTEXT = new LambdaContext("fn", "req", "arn:fn");

  /** Containers that answer with their own number and can be held inside an invocation. */
  private static final class Containers {
    final AtomicInteger starts = new AtomicInteger();
    final List<Integer> closed = new CopyOnWriteArrayList<>();
    volatile CountDownLatch entered = new CountDownLatch(0);
    volatile CountDownLatch release = new CountDownLatch(0);

    ContainerPool.Container start() {
      int id = starts.incrementAndGet();
      return new ContainerPool.Container() {
        @Override
        public String handle(String event, LambdaContext context) throws Exception {
          entered.countDown();
          if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
          if (event.equals("fail")) {
            throw new IllegalArgumentException("bad event");
          }
          return "container-" + id;
        }

        @Override
        public void close() {
          closed.add(id);
        }
      };
    }
  }

  @Test
  void overlappingInvocationsRunInTwoContainersAndLaterOnesReuseAWarmOne() throws Exception {
    Containers containers = new Containers();
    try (ContainerPool pool = new ContainerPool(containers::start, 8);
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      containers.entered = new CountDownLatch(2);
      containers.release = new CountDownLatch(1);
      Future<String> first = callers.submit(() -> pool.handle("a", CONTEXT));
      Future<String> second = callers.submit(() -> pool.handle("b", CONTEXT));
      // Both are inside a container at once: neither could be sharing the other's.
      assertThat(containers.entered.await(30, TimeUnit.SECONDS)).isTrue();
      containers.release.countDown();
      assertThat(List.of(first.get(), second.get()))
          .containsExactlyInAnyOrder("container-1", "container-2");

      assertThat(pool.handle("c", CONTEXT)).startsWith("container-");
      assertThat(pool.handle("d", CONTEXT)).startsWith("container-");
      assertThat(pool.containers()).as("sequential calls start nothing new").isEqualTo(2);
    }
    assertThat(containers.closed).containsExactlyInAnyOrder(1, 2);
  }

  @Test
  void aFailedInvocationKeepsItsContainerWarm() throws Exception {
    Containers containers = new Containers();
    try (ContainerPool pool = new ContainerPool(containers::start, 8)) {
      assertThatThrownBy(() -> pool.handle("fail", CONTEXT))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("bad event");
      assertThat(pool.handle("ok", CONTEXT)).isEqualTo("container-1");
      assertThat(pool.containers()).isEqualTo(1);
    }
  }

  @Test
  void beyondTheBoundAnInvocationWaitsForAContainerInsteadOfStartingOne() throws Exception {
    Containers containers = new Containers();
    try (ContainerPool pool = new ContainerPool(containers::start, 1);
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      containers.entered = new CountDownLatch(1);
      containers.release = new CountDownLatch(1);
      Future<String> first = callers.submit(() -> pool.handle("a", CONTEXT));
      assertThat(containers.entered.await(30, TimeUnit.SECONDS)).isTrue();
      Future<String> second = callers.submit(() -> pool.handle("b", CONTEXT));
      Eventually.until(
          "the second invocation waits for the busy container", () -> pool.waiting() == 1);
      containers.release.countDown();
      assertThat(first.get()).isEqualTo("container-1");
      assertThat(second.get()).isEqualTo("container-1");
      assertThat(containers.starts).hasValue(1);
    }
  }

  @Test
  void aStoppedPoolRefusesInvocationsAndABoundBelowOneIsRefused() throws Exception {
    Containers containers = new Containers();
    ContainerPool pool = new ContainerPool(containers::start, 2);
    pool.close();
    assertThatThrownBy(() -> pool.handle("a", CONTEXT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stopped");
    assertThatThrownBy(() -> new ContainerPool(containers::start, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxContainers");
  }
}
