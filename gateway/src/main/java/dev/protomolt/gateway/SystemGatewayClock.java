package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Wall-clock time; waits are scheduled on the common pool's delayed executor. */
final class SystemGatewayClock implements GatewayClock {

  static final SystemGatewayClock INSTANCE = new SystemGatewayClock();

  private SystemGatewayClock() {}

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public CompletableFuture<Void> after(Duration delay) {
    return CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS));
  }
}
