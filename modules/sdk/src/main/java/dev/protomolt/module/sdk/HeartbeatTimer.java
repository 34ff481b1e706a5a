package dev.protomolt.module.sdk;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Sends a heartbeat every interval on the worker clock until stopped. */
final class HeartbeatTimer {

  private final WorkerClock clock;
  private final Duration interval;
  private final Runnable beat;
  private CompletableFuture<Void> next;
  private boolean stopped;

  HeartbeatTimer(WorkerClock clock, Duration interval, Runnable beat) {
    this.clock = clock;
    this.interval = interval;
    this.beat = beat;
  }

  synchronized void start() {
    schedule();
  }

  synchronized void stop() {
    stopped = true;
    if (next != null) {
      next.cancel(false);
    }
  }

  private synchronized void schedule() {
    if (stopped) {
      return;
    }
    next = clock.after(interval);
    next.thenRun(this::tick);
  }

  private synchronized void tick() {
    // Under the lock, so no heartbeat can follow stop(): the ack goes out right after it and the
    // gateway must never see a heartbeat after the ack. A send only enqueues, so this is short.
    if (stopped) {
      return;
    }
    beat.run();
    schedule();
  }
}
