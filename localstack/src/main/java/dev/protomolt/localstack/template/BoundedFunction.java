package dev.protomolt.localstack.template;

import dev.protomolt.localstack.lambda.ContainerPool;
import dev.protomolt.localstack.lambda.LambdaContext;
import dev.protomolt.localstack.lambda.LambdaFunction;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A deployed function with the limits its template gives it: an invocation running longer than the
 * function's timeout fails as Lambda fails it (counted from when it has a container, not while it
 * waits for one), and with reserved concurrency no more invocations run
 * at once than reserved (the rest are throttled, as Lambda throttles them).
 */
final class BoundedFunction implements LambdaFunction, AutoCloseable {

  /** Lambda's answer to an invocation beyond the function's reserved concurrency. */
  static final class TooManyRequestsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooManyRequestsException(String message) {
      super(message);
    }
  }

  /** Lambda's answer to an invocation that outlives the function's timeout. */
  static final class FunctionTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FunctionTimeoutException(String message) {
      super(message);
    }
  }

  private final String name;
  private final LambdaFunction code;
  private final Duration timeout;
  private final Semaphore concurrency;
  private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();

  BoundedFunction(String name, LambdaFunction code, Duration timeout, OptionalInt reserved) {
    this.name = name;
    this.code = code;
    this.timeout = timeout;
    this.concurrency = reserved.isPresent() ? new Semaphore(reserved.getAsInt()) : null;
  }

  @Override
  public String handle(String event, LambdaContext context) throws Exception {
    if (concurrency != null && !concurrency.tryAcquire()) {
      throw new TooManyRequestsException(
          "Rate Exceeded: " + name + " is at its reserved concurrency");
    }
    try {
      // The clock starts once a container is held: waiting for one is not the run's time.
      ContainerPool.Lease lease = code instanceof ContainerPool pool ? pool.lease() : null;
      Future<String> run =
          runs.submit(
              () -> {
                if (lease == null) {
                  return code.handle(event, context);
                }
                try (lease) {
                  return lease.handle(event, context);
                }
              });
      try {
        return run.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        run.cancel(true);
        throw new FunctionTimeoutException(
            "Task timed out after " + timeout.toSeconds() + ".00 seconds");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw e;
      }
    } finally {
      if (concurrency != null) {
        concurrency.release();
      }
    }
  }

  /** Stops the function's runs, then its code's containers when it holds any. */
  @Override
  public void close() {
    runs.shutdownNow();
    if (code instanceof ContainerPool containers) {
      containers.close();
    }
  }
}
