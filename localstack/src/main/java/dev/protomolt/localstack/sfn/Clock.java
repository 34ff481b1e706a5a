package dev.protomolt.localstack.sfn;

import java.time.Instant;

/**
 * Time as the local Step Functions runtime sees it: the current instant and timers. Retry delays,
 * heartbeat expiry and timeouts are all timers on this clock, so tests drive them with
 * {@link FakeClock} instead of waiting on the wall clock.
 */
public interface Clock {

  Instant now();

  /** Runs {@code action} once at {@code at} (immediately if that has passed). */
  Timer schedule(Instant at, Runnable action);

  /** A scheduled action that may still be cancelled. */
  interface Timer {
    void cancel();
  }

  /** The wall clock, for the local cloud. */
  static Clock system() {
    return new SystemClock();
  }
}
