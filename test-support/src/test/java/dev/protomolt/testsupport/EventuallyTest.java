package dev.protomolt.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The waiting helper: it returns what it waited for, and a wait that ends says what it was. */
class EventuallyTest {

  @Test
  void aConditionThatComesToHoldEndsTheWait() {
    AtomicInteger probes = new AtomicInteger();
    Eventually.until("the third probe", () -> probes.incrementAndGet() == 3);
    assertThat(probes).hasValue(3);
  }

  @Test
  void theValueAProbeFindsIsReturned() {
    AtomicInteger probes = new AtomicInteger();
    String found =
        Eventually.value(
            "a value on the second probe",
            () -> probes.incrementAndGet() < 2 ? Optional.empty() : Optional.of("found"));
    assertThat(found).isEqualTo("found");
  }

  @Test
  void theReadingThatIsReadyIsReturned() {
    AtomicInteger probes = new AtomicInteger();
    int reading = Eventually.valueWhen("a reading past 4", probes::incrementAndGet, n -> n > 4);
    assertThat(reading).isEqualTo(5);
  }

  @Test
  void aWaitThatRunsOutNamesWhatItAwaitedAndTheLastReading() {
    assertThatThrownBy(
            () -> Eventually.valueWhen("the lamp lit", Duration.ZERO, () -> "dark", "lit"::equals))
        .isInstanceOf(AssertionError.class)
        .hasMessage("never happened within PT0S: the lamp lit (last reading: dark)");
    assertThatThrownBy(() -> Eventually.until("never", Duration.ZERO, () -> false))
        .hasMessageStartingWith("never happened within PT0S: never");
    assertThatThrownBy(() -> Eventually.value("nothing", Duration.ZERO, Optional::empty))
        .hasMessageContaining(": nothing (last reading: Optional.empty)");
  }

  @Test
  void anInterruptedWaitFailsAndKeepsTheInterrupt() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Eventually.until("an interrupted wait", () -> false))
          .isInstanceOf(AssertionError.class)
          .hasMessage("interrupted while waiting for: an interrupted wait");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aNegativePatienceIsRefusedNamingTheArgument() {
    assertThatThrownBy(() -> Eventually.until("x", Duration.ofSeconds(-1), () -> true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("patience must not be negative, got PT-1S");
  }

  @Test
  void aWaitThatKeepsMovingOutlastsItsStallBound() {
    // Probes come at most 100 ms apart, so 25 of them take well over the 1 s stall bound; each
    // one moves, so the wait goes on until the reading is ready.
    AtomicInteger probes = new AtomicInteger();
    int reading =
        Eventually.whileProgressing(
            "a reading past 24",
            Duration.ofSeconds(1),
            probes::incrementAndGet,
            n -> n,
            n -> n > 24);
    assertThat(reading).isEqualTo(25);
  }

  @Test
  void aWaitThatStopsMovingFailsNamingWhereItStood() {
    AtomicInteger probes = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Eventually.whileProgressing(
                    "documents to end",
                    Duration.ofMillis(200),
                    () -> Math.min(probes.incrementAndGet(), 3),
                    n -> n,
                    n -> n > 10))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("stopped moving for PT0.2S: documents to end (last reading: 3)");
  }
}
