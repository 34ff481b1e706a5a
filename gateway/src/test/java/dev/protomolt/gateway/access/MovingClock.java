package dev.protomolt.gateway.access;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** A UTC clock a test moves by hand, so a window passes without anyone waiting for it. */
final class MovingClock extends Clock {
  Instant now = Instant.parse("2026-12-01T12:00:00Z");

  @Override
  public ZoneOffset getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(java.time.ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
