package dev.protomolt.module.samples.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UlidGeneratorTest {

  /** A clock the test moves by hand. */
  private static final class SteppingClock extends Clock {
    private Instant now = Instant.parse("2026-06-01T12:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void encodesTheBoundsOfOneHundredTwentyEightBits() {
    assertThat(UlidGenerator.encode(0, 0)).isEqualTo("00000000000000000000000000");
    assertThat(UlidGenerator.encode(-1, -1)).isEqualTo("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    assertThat(UlidGenerator.encode(0, 1)).isEqualTo("00000000000000000000000001");
    assertThat(UlidGenerator.encode(0, 32)).isEqualTo("00000000000000000000000010");
  }

  @Test
  void theFirstTenCharactersAreTheMillisecondTimestamp() {
    // The example id from the ULID specification.
    assertThat(UlidGenerator.timestampOf("01ARYZ6S41TSV4RRFFQ69G5FAV"))
        .isEqualTo(1_469_918_176_385L);
    SteppingClock clock = new SteppingClock();
    String id = new UlidGenerator(clock, new Random(1)).next();
    assertThat(id).hasSize(26).matches("[0-9A-HJKMNP-TV-Z]{26}");
    assertThat(UlidGenerator.timestampOf(id)).isEqualTo(clock.millis());
    assertThatThrownBy(() -> UlidGenerator.timestampOf("01ARYZ6S4ITSV4RRFFQ69G5FAV"))
        .hasMessageContaining("character 9");
  }

  @Test
  void idsSortAsTextInTheOrderTheyWereMadeEvenWithinOneMillisecond() {
    SteppingClock clock = new SteppingClock();
    UlidGenerator generator = new UlidGenerator(clock, new Random(7));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      ids.add(generator.next());
      ids.add(generator.next());
      clock.now = clock.now.plus(Duration.ofMillis(i % 3 == 0 ? 0 : 1));
    }
    // The clock stepping back must not break the order either.
    clock.now = clock.now.minusSeconds(5);
    ids.add(generator.next());
    assertThat(ids).doesNotHaveDuplicates().isSorted();
  }
}
