package dev.protomolt.localstack.lambda;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * One function's execution environments, as Lambda keeps them: an invocation runs alone in a
 * container, taking an idle one when there is one and starting a new one otherwise, and the
 * container is kept warm for the next invocation afterwards.
 *
 * <p>Production code sizes what a container holds (one database connection pool of two, one Kafka
 * producer) for one invocation at a time; sharing one container between every concurrent
 * invocation made them queue on those two connections under load. Idle containers are reused
 * most recently used first, so a steady trickle keeps one warm and only bursts start more.
 *
 * <p>At most {@code maxContainers} run at once; a further invocation waits for one to come free.
 * AWS would scale further, each container reaching the database through RDS Proxy; the local
 * PostgreSQL has no proxy and a fixed number of connections, which this bound protects.
 */
public final class ContainerPool implements LambdaFunction, AutoCloseable {

  /** A started container: the function's code with the clients it holds. */
  public interface Container extends LambdaFunction, AutoCloseable {
    /** Releases what the container holds; a failure is unchecked. */
    @Override
    void close();
  }

  private final Supplier<? extends Container> starter;
  private final Semaphore running;
  private final Deque<Container> idle = new ConcurrentLinkedDeque<>();
  private final List<Container> started = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  /**
   * @param starter starts one container (a cold start); called only when no idle one is left
   * @param maxContainers the most containers this function runs at once
   */
  public ContainerPool(Supplier<? extends Container> starter, int maxContainers) {
    if (maxContainers < 1) {
      throw new IllegalArgumentException("maxContainers must be at least 1, got " + maxContainers);
    }
    this.starter = starter;
    this.running = new Semaphore(maxContainers);
  }

  @Override
  public String handle(String event, LambdaContext context) throws Exception {
    try (Lease lease = lease()) {
      return lease.handle(event, context);
    }
  }

  /**
   * Waits for a container and holds it until the lease is closed. A caller that times the
   * invocation starts its clock after this returns: Lambda's timeout counts the run, never a wait
   * for an execution environment (AWS throttles instead of queueing).
   */
  public Lease lease() throws InterruptedException {
    running.acquire();
    try {
      return new Lease(take());
    } catch (RuntimeException e) {
      running.release();
      throw e;
    }
  }

  /** One invocation's hold on a container; closing it makes the container idle again. */
  public final class Lease implements AutoCloseable {
    private final Container container;
    private boolean closed;

    private Lease(Container container) {
      this.container = container;
    }

    /** Runs the invocation in the leased container. */
    public String handle(String event, LambdaContext context) throws Exception {
      return container.handle(event, context);
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        idle.offerFirst(container);
        running.release();
      }
    }
  }

  /** How many invocations are waiting for a container because the bound is reached. */
  public int waiting() {
    return running.getQueueLength();
  }

  /** How many containers have been started so far. */
  public int containers() {
    return started.size();
  }

  private Container take() {
    if (closed) {
      throw new IllegalStateException("the function's containers are stopped");
    }
    Container warm = idle.pollFirst();
    if (warm != null) {
      return warm;
    }
    Container cold = starter.get();
    started.add(cold);
    return cold;
  }

  /** Stops every container; the first failure is thrown after all were tried. */
  @Override
  public void close() {
    closed = true;
    List<RuntimeException> failures = new ArrayList<>();
    for (Container c : started) {
      try {
        c.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    idle.clear();
    if (!failures.isEmpty()) {
      RuntimeException first = failures.getFirst();
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }
}
