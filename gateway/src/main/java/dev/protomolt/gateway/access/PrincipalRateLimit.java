package dev.protomolt.gateway.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;

/**
 * A token bucket per principal: {@code callsPerSecond} refill, {@code burst} capacity. One gateway
 * task counts its own calls (decision 1746): behind the load balancer a principal's budget is per
 * task, which bounds what one caller can make one task do, not the fleet's total.
 */
public final class PrincipalRateLimit {

  private final double callsPerSecond;
  private final double burst;
  private final Clock clock;
  // Principals idle for a minute start again with a full bucket, which is what they would have.
  private final Cache<String, Bucket> buckets =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofMinutes(1)).build();

  private static final class Bucket {
    double tokens;
    long refilledAtNanos;

    Bucket(double tokens, long now) {
      this.tokens = tokens;
      this.refilledAtNanos = now;
    }
  }

  /**
   * @throws IllegalArgumentException when the rate or burst is not positive
   */
  public PrincipalRateLimit(double callsPerSecond, int burst, Clock clock) {
    if (!(callsPerSecond > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "the operator rate limit needs calls per second > 0 and a burst >= 1, got "
              + callsPerSecond
              + " and "
              + burst);
    }
    this.callsPerSecond = callsPerSecond;
    this.burst = burst;
    this.clock = clock;
  }

  public double callsPerSecond() {
    return callsPerSecond;
  }

  public int burst() {
    return (int) burst;
  }

  /**
   * Takes one call from {@code principal}'s bucket: zero when allowed, else how long until one call
   * would be.
   */
  public Duration take(String principal) {
    long now = nanos();
    Bucket b = buckets.get(principal, p -> new Bucket(burst, now));
    synchronized (b) {
      double elapsed = (now - b.refilledAtNanos) / 1e9;
      b.tokens = Math.min(burst, b.tokens + elapsed * callsPerSecond);
      b.refilledAtNanos = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return Duration.ZERO;
      }
      return Duration.ofNanos((long) Math.ceil((1 - b.tokens) / callsPerSecond * 1e9));
    }
  }

  private long nanos() {
    java.time.Instant at = clock.instant();
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }
}
