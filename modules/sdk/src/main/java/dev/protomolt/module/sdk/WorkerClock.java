package dev.protomolt.module.sdk;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Every wait in the worker loop (heartbeat ticks, NoWorkAvailable pauses, reconnect back-off) goes
 * through this, so tests drive time by hand instead of sleeping.
 */
public interface WorkerClock {

  Instant now();

  /**
   * A future completed once {@code delay} has passed. Cancelling it abandons the wait; callbacks
   * attached to it may run on the clock's own thread, so they must be short.
   */
  CompletableFuture<Void> after(Duration delay);

  static WorkerClock system() {
    return SystemWorkerClock.INSTANCE;
  }
}
