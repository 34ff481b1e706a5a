package dev.protomolt.localstack.schedule;

import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs schedules on the local clock: each invokes its function when its expression next fires,
 * and {@link #trigger} fires one at once, which is how tests run a nightly job without waiting for
 * it. Invocations are asynchronous as EventBridge's are: a failing run is logged, and the schedule
 * keeps its pace.
 */
public final class LocalScheduler implements AutoCloseable {

  /** One schedule: its name, expression, target function and the payload of each run. */
  public record Schedule(
      String name,
      ScheduleExpression expression,
      String functionName,
      Function<Instant, String> payload) {}

  private final LocalLambdaRunner lambdas;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "protomolt-local-scheduler");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, Schedule> schedules = new ConcurrentHashMap<>();

  public LocalScheduler(LocalLambdaRunner lambdas, Clock clock) {
    this.lambdas = lambdas;
    this.clock = clock;
  }

  /** Adds {@code schedule} and arms it for its next firing. */
  public void add(Schedule schedule) {
    if (schedules.putIfAbsent(schedule.name(), schedule) != null) {
      throw new IllegalArgumentException("schedule: '" + schedule.name() + "' exists already");
    }
    arm(schedule, clock.instant());
  }

  /** The names of every schedule. */
  public java.util.Set<String> names() {
    return java.util.Set.copyOf(schedules.keySet());
  }

  /** Runs schedule {@code name} now, synchronously, and returns what its function returned. */
  public LambdaResult trigger(String name) {
    Schedule s = schedules.get(name);
    if (s == null) {
      throw new IllegalArgumentException(
          "schedule: no schedule '" + name + "' (known: " + schedules.keySet() + ")");
    }
    return lambdas.invoke(s.functionName(), s.payload().apply(clock.instant()));
  }

  private void arm(Schedule s, Instant after) {
    Optional<Instant> next = s.expression().nextAfter(after);
    if (next.isEmpty() || timer.isShutdown()) {
      return;
    }
    long delay = Math.max(0, Duration.between(clock.instant(), next.get()).toMillis());
    timer.schedule(
        () -> {
          try {
            LambdaResult result = lambdas.invoke(s.functionName(), s.payload().apply(next.get()));
            if (result instanceof LambdaResult.Failure f) {
              System.err.println(
                  "schedule " + s.name() + ": " + f.errorType() + ": " + f.errorMessage());
            }
          } catch (RuntimeException e) {
            System.err.println("schedule " + s.name() + ": " + e);
          } finally {
            arm(s, next.get());
          }
        },
        delay,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
