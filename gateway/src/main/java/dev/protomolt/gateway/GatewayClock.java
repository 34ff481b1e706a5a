package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Every wait the gateway makes (the NoWorkAvailable wait, the watchdog, heartbeat throttling) goes
 * through this, so protocol tests move time by hand instead of sleeping.
 */
public interface GatewayClock {

  Instant now();

  /**
   * A future completed once {@code delay} has passed. Cancelling it abandons the wait; callbacks on
   * it may run on the clock's own thread, so they must be short.
   */
  CompletableFuture<Void> after(Duration delay);

  static GatewayClock system() {
    return SystemGatewayClock.INSTANCE;
  }
}
