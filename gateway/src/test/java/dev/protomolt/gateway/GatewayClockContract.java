package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GatewayClock} promises the gateway's waits (the NoWorkAvailable pause, the
 * watchdog, heartbeat throttling): time never runs backwards, a wait completes once its delay has
 * passed and not before, a wait of no time completes at once, and a cancelled wait stays
 * abandoned without holding up the next one.
 *
 * <p>Subclassed by the system clock, where time passes on its own, and by the {@link
 * ManualGatewayClock} the protocol tests move by hand.
 */
abstract class GatewayClockContract {

  /** A bound for a wait on the real clock to be seen complete; for failing only. */
  static final long PATIENCE_SECONDS = 60;

  /** Short, so the system clock's subclass waits little real time. */
  static final Duration DELAY = Duration.ofMillis(50);

  protected GatewayClock clock;

  /** The clock under test, fresh per test where it can be. */
  protected abstract GatewayClock clock();

  /** Lets {@code duration} pass on the clock (by hand, or by doing nothing on the real one). */
  protected abstract void pass(Duration duration);

  @BeforeEach
  void freshClock() {
    clock = clock();
  }

  @Test
  void timeNeverRunsBackwards() {
    Instant first = clock.now();
    pass(DELAY);
    Instant second = clock.now();
    assertThat(second).isAfterOrEqualTo(first);
  }

  @Test
  void aWaitCompletesOnceItsDelayHasPassed() throws Exception {
    Instant start = clock.now();
    CompletableFuture<Void> wait = clock.after(DELAY);
    pass(DELAY);
    wait.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(clock.now()).as("completed no earlier than due").isAfterOrEqualTo(start.plus(DELAY));
  }

  @Test
  void aWaitOfNoTimeCompletesWithoutTimePassing() throws Exception {
    CompletableFuture<Void> wait = clock.after(Duration.ZERO);
    pass(Duration.ZERO);
    wait.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(wait).isCompleted();
  }

  @Test
  void aCancelledWaitStaysAbandonedAndTheNextOneStillCompletes() throws Exception {
    CompletableFuture<Void> abandoned = clock.after(DELAY);
    assertThat(abandoned.cancel(false)).isTrue();
    CompletableFuture<Void> next = clock.after(DELAY.multipliedBy(2));
    pass(DELAY.multipliedBy(2));
    next.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(abandoned).isCancelled();
  }

  @Test
  void aLaterWaitIsStillPendingWhenAnEarlierOneCompletes() throws Exception {
    Instant start = clock.now();
    CompletableFuture<Void> soon = clock.after(DELAY);
    CompletableFuture<Void> later = clock.after(Duration.ofHours(1));
    pass(DELAY);
    soon.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    // Less than an hour has passed on this clock, so the hour-long wait cannot be due yet.
    assertThat(clock.now()).isBefore(start.plus(Duration.ofHours(1)));
    assertThat(later).isNotDone();
    later.cancel(false);
  }
}
