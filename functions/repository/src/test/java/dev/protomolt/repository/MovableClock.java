package dev.protomolt.repository;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand, so a grace period passes without anyone waiting for it. */
final class MovableClock extends Clock {

  private volatile Instant now;

  MovableClock(Instant start) {
    this.now = start;
  }

  void advance(Duration by) {
    now = now.plus(by);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a movable clock stays in UTC");
  }

  @Override
  public Instant instant() {
    return now;
  }
}
