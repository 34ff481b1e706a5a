package dev.protomolt.testsupport;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Waits for something real components do on their own threads: an upload admitted, an execution
 * closed, a record buffered. It polls the probe until it holds and fails with an {@link
 * AssertionError} naming what was awaited once the patience runs out.
 *
 * <p>The patience is a bound for failing, never a measurement: a test must not pass or fail on how
 * fast something happened, only on whether it did. It must not be used to show that something
 * did <em>not</em> happen either; that needs a signal after which it would have happened.
 */
public final class Eventually {

  /** Real components need real time to start and run on a loaded build machine. */
  public static final Duration PATIENCE = Duration.ofSeconds(120);

  /** The first pause between probes; it doubles up to {@link #LONGEST_PAUSE_MILLIS}. */
  private static final long FIRST_PAUSE_MILLIS = 5;

  private static final long LONGEST_PAUSE_MILLIS = 100;

  private Eventually() {}

  /** Waits until {@code condition} holds, at most {@link #PATIENCE}. */
  public static void until(String what, BooleanSupplier condition) {
    until(what, PATIENCE, condition);
  }

  /** Waits until {@code condition} holds, at most {@code patience}. */
  public static void until(String what, Duration patience, BooleanSupplier condition) {
    Objects.requireNonNull(condition, "condition");
    valueWhen(what, patience, condition::getAsBoolean, Boolean::booleanValue);
  }

  /** Waits until {@code probe} yields a value and returns it, at most {@link #PATIENCE}. */
  public static <T> T value(String what, Supplier<Optional<T>> probe) {
    return value(what, PATIENCE, probe);
  }

  /** Waits until {@code probe} yields a value and returns it, at most {@code patience}. */
  public static <T> T value(String what, Duration patience, Supplier<Optional<T>> probe) {
    Objects.requireNonNull(probe, "probe");
    return valueWhen(what, patience, probe, Optional::isPresent).orElseThrow();
  }

  /**
   * Waits until what {@code probe} reads is {@code ready} and returns that reading, at most {@link
   * #PATIENCE}; for example an execution described until it is no longer running.
   */
  public static <T> T valueWhen(String what, Supplier<T> probe, Predicate<? super T> ready) {
    return valueWhen(what, PATIENCE, probe, ready);
  }

  /**
   * Waits until what {@code probe} reads is {@code ready} and returns that reading, at most {@code
   * patience}. The failure names {@code what} and the last reading, so a stuck wait says where it
   * stood.
   */
  public static <T> T valueWhen(
      String what, Duration patience, Supplier<T> probe, Predicate<? super T> ready) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(patience, "patience");
    Objects.requireNonNull(probe, "probe");
    Objects.requireNonNull(ready, "ready");
    if (patience.isNegative()) {
      throw new IllegalArgumentException("patience must not be negative, got " + patience);
    }
    long deadline = System.nanoTime() + patience.toNanos();
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      T reading = probe.get();
      if (ready.test(reading)) {
        return reading;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            "never happened within " + patience + ": " + what + " (last reading: " + reading + ")");
      }
      pause = pauseAfter(pause, what);
    }
  }

  /** Sleeps {@code pause} ms and returns the next, doubled up to {@link #LONGEST_PAUSE_MILLIS}. */
  private static long pauseAfter(long pause, String what) {
    try {
      Thread.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for: " + what, e);
    }
    return Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
  }

  /**
   * Waits until what {@code probe} reads is {@code ready}, for as long as it keeps moving: fails
   * only when {@code progress} of the readings has not grown for {@code stall}. A long run of
   * documents on a loaded machine takes as long as it takes; a run that stopped moving fails a
   * {@code stall} after its last step, naming where it stood.
   */
  public static <T> T whileProgressing(
      String what,
      Duration stall,
      Supplier<T> probe,
      ToLongFunction<? super T> progress,
      Predicate<? super T> ready) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(stall, "stall");
    Objects.requireNonNull(probe, "probe");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(ready, "ready");
    long best = Long.MIN_VALUE;
    long movedAt = System.nanoTime();
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      T reading = probe.get();
      if (ready.test(reading)) {
        return reading;
      }
      long p = progress.applyAsLong(reading);
      if (p > best) {
        best = p;
        movedAt = System.nanoTime();
      } else if (System.nanoTime() - movedAt >= stall.toNanos()) {
        throw new AssertionError(
            "stopped moving for " + stall + ": " + what + " (last reading: " + reading + ")");
      }
      pause = pauseAfter(pause, what);
    }
  }
}
