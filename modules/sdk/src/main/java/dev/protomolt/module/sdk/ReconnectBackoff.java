package dev.protomolt.module.sdk;

import java.time.Duration;

/**
 * Exponential back-off between failed streams: initial, 2x, 4x ... capped at max. No jitter: each
 * slot fails on its own schedule already, and a deterministic delay keeps the tests exact.
 */
public record ReconnectBackoff(Duration initial, Duration max) {

  public ReconnectBackoff {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("reconnect initial delay must be > 0, got " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "reconnect max delay must be >= initial delay " + initial + ", got " + max);
    }
  }

  /** The delay before retry number {@code failures} (0 = after the first failure). */
  public Duration delayAfter(int failures) {
    long delay = initial.toMillis();
    for (int i = 0; i < failures && delay < max.toMillis(); i++) {
      delay *= 2;
    }
    return Duration.ofMillis(Math.min(delay, max.toMillis()));
  }
}
