package dev.protomolt.module.sdk;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The wall clock, with one daemon timer thread shared by every worker in the process. */
final class SystemWorkerClock implements WorkerClock {

  static final SystemWorkerClock INSTANCE = new SystemWorkerClock();

  private final ScheduledExecutorService timer;

  private SystemWorkerClock() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "protomolt-worker-clock");
              thread.setDaemon(true);
              return thread;
            });
    // Cancelled back-off waits would otherwise linger in the queue until their deadline.
    executor.setRemoveOnCancelPolicy(true);
    this.timer = executor;
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public CompletableFuture<Void> after(Duration delay) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    ScheduledFuture<?> scheduled =
        timer.schedule(
            () -> done.complete(null), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    done.whenComplete((ignored, failure) -> scheduled.cancel(false));
    return done;
  }
}
