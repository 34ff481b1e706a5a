package dev.protomolt.localstack.sfn;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** The wall clock with a single daemon scheduler thread; timer actions run on virtual threads. */
final class SystemClock implements Clock {

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "local-sfn-timers");
            t.setDaemon(true);
            return t;
          });

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public Timer schedule(Instant at, Runnable action) {
    // One millisecond late rather than early: expiry checks compare against persisted deadlines
    // (rounded to microseconds by Postgres), and firing early would find nothing due.
    long delay = Math.max(0, Duration.between(Instant.now(), at).toMillis() + 1);
    ScheduledFuture<?> future =
        scheduler.schedule(() -> Thread.ofVirtual().start(action), delay, TimeUnit.MILLISECONDS);
    return () -> future.cancel(false);
  }
}
