package dev.protomolt.gateway;

import java.time.Duration;

/** The wall clock the gateway runs on holds the {@link GatewayClock} contract. */
class SystemGatewayClockContractTest extends GatewayClockContract {

  @Override
  protected GatewayClock clock() {
    return GatewayClock.system();
  }

  @Override
  protected void pass(Duration duration) {
    // Real time passes on its own; the contract waits on the clock's own futures.
  }
}
