package dev.protomolt.core.graph;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock tests move by hand, so nothing depends on wall time. */
public final class FakeClock implements InstantSource {

  private Instant now;

  public FakeClock(Instant start) {
    this.now = start;
  }

  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public Instant instant() {
    return now;
  }
}
