package dev.protomolt.gateway.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The token bucket per principal, on a clock the test moves. */
class PrincipalRateLimitTest {

  @Test
  void aBurstIsServedThenCallsWaitForTheRefill() {
    MovingClock clock = new MovingClock();
    PrincipalRateLimit limit = new PrincipalRateLimit(2, 4, clock);
    for (int i = 0; i < 4; i++) {
      assertThat(limit.take("arn:op")).as("call %d of the burst", i + 1).isZero();
    }
    assertThat(limit.take("arn:op")).isEqualTo(Duration.ofMillis(500));
    clock.now = clock.now.plusMillis(500);
    assertThat(limit.take("arn:op")).isZero();
    assertThat(limit.take("arn:op")).isPositive();
  }

  @Test
  void eachPrincipalHasItsOwnBudget() {
    PrincipalRateLimit limit = new PrincipalRateLimit(1, 1, new MovingClock());
    assertThat(limit.take("arn:a")).isZero();
    assertThat(limit.take("arn:a")).isPositive();
    assertThat(limit.take("arn:b")).isZero();
  }

  @Test
  void anIdleBucketRefillsOnlyToItsBurst() {
    MovingClock clock = new MovingClock();
    PrincipalRateLimit limit = new PrincipalRateLimit(10, 2, clock);
    assertThat(limit.take("arn:op")).isZero();
    clock.now = clock.now.plusSeconds(30);
    assertThat(limit.take("arn:op")).isZero();
    assertThat(limit.take("arn:op")).isZero();
    assertThat(limit.take("arn:op")).isPositive();
  }

  @Test
  void aRateThatAllowsNothingIsRefused() {
    assertThatThrownBy(() -> new PrincipalRateLimit(0, 1, Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("calls per second > 0");
  }
}
