package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The fair-share queue's turns, pure logic. */
class FairShareQueueTest {

  private static List<String> drain(FairShareQueue<String> q) {
    List<String> out = new ArrayList<>();
    for (Optional<String> next = q.poll(); next.isPresent(); next = q.poll()) {
      out.add(next.get());
    }
    return out;
  }

  @Test
  void accountsTakeTurnsAndEachKeepsItsOrder() {
    FairShareQueue<String> q = new FairShareQueue<>();
    for (int i = 0; i < 4; i++) {
      q.addLast("a", "p0", "a" + i);
    }
    q.addLast("b", "p0", "b0");
    q.addLast("c", "p0", "c0");
    q.addLast("b", "p0", "b1");
    assertThat(q.size()).isEqualTo(7);
    assertThat(q.size("b")).isEqualTo(2);

    assertThat(drain(q)).containsExactly("a0", "b0", "c0", "a1", "b1", "a2", "a3");
    assertThat(q.isEmpty()).isTrue();
  }

  @Test
  void aRebufferedRecordIsServedNextAndItsAccountKeepsItsTurnAfterwards() {
    FairShareQueue<String> q = new FairShareQueue<>();
    q.addLast("a", "p0", "a0");
    q.addLast("a", "p0", "a1");
    q.addLast("b", "p0", "b0");
    assertThat(q.poll()).contains("a0");
    q.addFirst("a", "p0", "a0");

    assertThat(drain(q)).containsExactly("a0", "b0", "a1");
  }

  @Test
  void insideOneAccountItsPartitionsTakeTurns() {
    FairShareQueue<String> q = new FairShareQueue<>();
    for (int i = 0; i < 3; i++) {
      q.addLast("a", "p0", "a-p0-" + i);
    }
    q.addLast("a", "p1", "a-p1-0");
    q.addLast("b", "p0", "b-p0-0");

    assertThat(drain(q)).containsExactly("a-p0-0", "b-p0-0", "a-p1-0", "a-p0-1", "a-p0-2");
  }

  @Test
  void removedRecordsLeaveTheTurnsOfTheRestIntact() {
    FairShareQueue<String> q = new FairShareQueue<>();
    q.addLast("a", "p0", "a0-gone");
    q.addLast("b", "p0", "b0");
    q.addLast("a", "p0", "a1");
    q.addLast("c", "p0", "c0-gone");

    q.removeIf(s -> s.endsWith("-gone"));

    assertThat(q.size()).isEqualTo(2);
    assertThat(q.size("c")).isZero();
    assertThat(drain(q)).containsExactly("a1", "b0");
  }
}
