package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;

/** The hand-moved clock of the protocol tests holds the {@link GatewayClock} contract. */
class ManualGatewayClockContractTest extends GatewayClockContract {

  private ManualGatewayClock manual;

  @Override
  protected GatewayClock clock() {
    manual = new ManualGatewayClock(Instant.parse("2026-03-01T12:00:00Z"));
    return manual;
  }

  @Override
  protected void pass(Duration duration) {
    manual.advance(duration);
  }
}
