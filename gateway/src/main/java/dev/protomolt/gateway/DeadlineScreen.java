package dev.protomolt.gateway;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Instant;
import java.util.Objects;

/**
 * Drains a dispatch whose deadline has passed: its Work state has timed out, so its token is dead
 * and Step Functions has already re-dispatched (or dead-lettered) the hop.
 */
public final class DeadlineScreen implements WorkScreen {

  /** The drain reason: the Work state timed out, which dead-letters its hop (decision 1650). */
  public static final String EXPIRED = "token-expired";

  private final GatewayClock clock;

  public DeadlineScreen(GatewayClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public ScreenVerdict screen(WorkDispatch dispatch) {
    if (!dispatch.hasDeadline()) {
      return ScreenVerdict.SERVE;
    }
    Timestamp d = dispatch.getDeadline();
    Instant deadline = Instant.ofEpochSecond(d.getSeconds(), d.getNanos());
    Instant now = clock.now();
    if (!now.isBefore(deadline)) {
      return new ScreenVerdict.Drain(
          EXPIRED,
          "work unit "
              + dispatch.getWorkUnitId()
              + " passed its deadline "
              + deadline
              + " at "
              + now);
    }
    return ScreenVerdict.SERVE;
  }
}
