package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.gateway.AccountShares.Share;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The fair-share queue's turns, weights and rate limits, pure logic. */
class FairShareQueueTest {

  static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");

  private static List<String> drain(FairShareQueue<String> q) {
    return drain(q, T0);
  }

  private static List<String> drain(FairShareQueue<String> q, Instant now) {
    List<String> out = new ArrayList<>();
    for (Optional<String> next = q.poll(now); next.isPresent(); next = q.poll(now)) {
      out.add(next.get());
    }
    return out;
  }

  private static AccountShares weights(Map<String, Integer> weights) {
    Map<String, Share> shares = new java.util.HashMap<>();
    weights.forEach((a, w) -> shares.put(a, new Share(w, OptionalInt.empty())));
    return new AccountShares(shares, Share.EQUAL);
  }

  private static AccountShares limit(String account, int perSecond) {
    return new AccountShares(Map.of(account, new Share(1, OptionalInt.of(perSecond))), Share.EQUAL);
  }

  @Test
  void accountsTakeTurnsAndEachKeepsItsOrder() {
    FairShareQueue<String> q = new FairShareQueue<>();
    for (int i = 0; i < 4; i++) {
      q.addLast("a", "g", "p0", "a" + i);
    }
    q.addLast("b", "g", "p0", "b0");
    q.addLast("c", "g", "p0", "c0");
    q.addLast("b", "g", "p0", "b1");
    assertThat(q.size()).isEqualTo(7);
    assertThat(q.size("b")).isEqualTo(2);

    assertThat(drain(q)).containsExactly("a0", "b0", "c0", "a1", "b1", "a2", "a3");
    assertThat(q.isEmpty()).isTrue();
  }

  @Test
  void aRebufferedRecordIsServedNextAndItsAccountKeepsItsTurnAfterwards() {
    FairShareQueue<String> q = new FairShareQueue<>();
    q.addLast("a", "g", "p0", "a0");
    q.addLast("a", "g", "p0", "a1");
    q.addLast("b", "g", "p0", "b0");
    assertThat(q.poll(T0)).contains("a0");
    q.addFirst("a", "g", "p0", "a0", T0);

    assertThat(drain(q)).containsExactly("a0", "b0", "a1");
  }

  @Test
  void insideOneAccountItsPartitionsTakeTurns() {
    FairShareQueue<String> q = new FairShareQueue<>();
    for (int i = 0; i < 3; i++) {
      q.addLast("a", "g", "p0", "a-p0-" + i);
    }
    q.addLast("a", "g", "p1", "a-p1-0");
    q.addLast("b", "g", "p0", "b-p0-0");

    assertThat(drain(q)).containsExactly("a-p0-0", "b-p0-0", "a-p1-0", "a-p0-1", "a-p0-2");
  }

  @Test
  void insideOneAccountItsGraphsTakeTurnsWhateverPartitionsTheyUse() {
    FairShareQueue<String> q = new FairShareQueue<>();
    // The busy graph spreads over two partitions; the quiet one has one record on a third.
    for (int i = 0; i < 3; i++) {
      q.addLast("a", "busy", "p0", "busy-p0-" + i);
      q.addLast("a", "busy", "p1", "busy-p1-" + i);
    }
    q.addLast("a", "quiet", "p2", "quiet-0");
    q.addLast("a", "quiet", "p2", "quiet-1");

    assertThat(drain(q).subList(0, 4))
        .containsExactly("busy-p0-0", "quiet-0", "busy-p1-0", "quiet-1");
  }

  @Test
  void removedRecordsLeaveTheTurnsOfTheRestIntact() {
    FairShareQueue<String> q = new FairShareQueue<>();
    q.addLast("a", "g", "p0", "a0-gone");
    q.addLast("b", "g", "p0", "b0");
    q.addLast("a", "g", "p0", "a1");
    q.addLast("c", "g", "p0", "c0-gone");

    q.removeIf(s -> s.endsWith("-gone"));

    assertThat(q.size()).isEqualTo(2);
    assertThat(q.size("c")).isZero();
    assertThat(drain(q)).containsExactly("a1", "b0");
  }

  @Test
  void anAccountTakesTurnsOfItsWeightInRecords() {
    FairShareQueue<String> q = new FairShareQueue<>(weights(Map.of("a", 3, "b", 1)));
    for (int i = 0; i < 6; i++) {
      q.addLast("a", "g", "p0", "a" + i);
    }
    for (int i = 0; i < 3; i++) {
      q.addLast("b", "g", "p0", "b" + i);
    }

    assertThat(drain(q)).containsExactly("a0", "a1", "a2", "b0", "a3", "a4", "a5", "b1", "b2");
  }

  /**
   * The bound of decision 1658, checked against the worst order: the account under test arrives
   * last, behind backlogs far longer than its own, and every other account has a different
   * weight. Its j-th record must be served by turn (⌊j/w⌋ + 1)·W + j, W the others' weights.
   */
  @Test
  void eachRecordIsServedWithinTheWeightedBound() {
    Map<String, Integer> w = Map.of("big", 5, "mid", 2, "one", 1, "late", 3);
    FairShareQueue<String> q = new FairShareQueue<>(weights(w));
    for (int i = 0; i < 1_000; i++) {
      q.addLast("big", "g", "p" + (i % 3), "big-" + i);
      q.addLast("mid", "g", "p0", "mid-" + i);
      q.addLast("one", "g", "p1", "one-" + i);
    }
    int few = 40;
    for (int j = 0; j < few; j++) {
      q.addLast("late", "g", "p2", "late-" + j);
    }

    List<String> served = drain(q);
    assertThat(served).hasSize(3_000 + few).doesNotHaveDuplicates();
    for (String account : w.keySet()) {
      int weight = w.get(account);
      int others = w.values().stream().mapToInt(Integer::intValue).sum() - weight;
      List<String> mine = served.stream().filter(s -> s.startsWith(account + "-")).toList();
      for (int j = 0; j < Math.min(mine.size(), 200); j++) {
        assertThat(served.indexOf(mine.get(j)))
            .as("turn of %s's record %d", account, j)
            .isLessThanOrEqualTo((j / weight + 1) * others + j);
      }
    }
    // And the bound is met exactly by the account that came last: no slack was hidden in it.
    assertThat(served.indexOf("late-0")).isEqualTo(5 + 2 + 1);
  }

  @Test
  void aLimitedAccountWaitsInTheBufferWhileTheOthersAreServed() {
    FairShareQueue<String> q = new FairShareQueue<>(limit("a", 2));
    for (int i = 0; i < 6; i++) {
      q.addLast("a", "g", "p0", "a" + i);
    }
    for (int i = 0; i < 4; i++) {
      q.addLast("b", "g", "p0", "b" + i);
    }

    // Its bucket holds one second's worth: two records, then only b until time moves.
    assertThat(drain(q)).containsExactly("a0", "b0", "a1", "b1", "b2", "b3");
    assertThat(q.size("a")).as("kept, not dropped").isEqualTo(4);
    assertThat(q.untilServable(T0)).contains(Duration.ofMillis(500));

    assertThat(q.poll(T0.plusMillis(499))).isEmpty();
    assertThat(q.poll(T0.plusMillis(500))).contains("a2");
    assertThat(q.untilServable(T0.plusMillis(500))).contains(Duration.ofMillis(500));
    // A second later the bucket is full again, but holds no more than a second's worth.
    assertThat(drain(q, T0.plusSeconds(10))).containsExactly("a3", "a4");
    assertThat(q.size("a")).isEqualTo(1);
  }

  @Test
  void drainingItsRecordsDoesNotRefillALimitedAccountsBucket() {
    FairShareQueue<String> q = new FairShareQueue<>(limit("a", 1));
    q.addLast("a", "g", "p0", "a0");
    assertThat(q.poll(T0)).contains("a0");
    q.addLast("a", "g", "p0", "a1");

    assertThat(q.poll(T0)).isEmpty();
    assertThat(q.untilServable(T0)).contains(Duration.ofSeconds(1));
    assertThat(q.poll(T0.plusSeconds(1))).contains("a1");
  }

  @Test
  void aRebufferedRecordGivesItsTokenBack() {
    FairShareQueue<String> q = new FairShareQueue<>(limit("a", 1));
    q.addLast("a", "g", "p0", "a0");
    String popped = q.poll(T0).orElseThrow();
    q.addFirst("a", "g", "p0", popped, T0);

    assertThat(q.poll(T0)).as("the module never got it: no token spent").contains("a0");
  }

  @Test
  void nothingBufferedHasNoWaitAndAnUnlimitedRecordHasNone() {
    FairShareQueue<String> q = new FairShareQueue<>(limit("a", 1));
    assertThat(q.untilServable(T0)).isEmpty();
    q.addLast("a", "g", "p0", "a0");
    q.addLast("a", "g", "p0", "a1");
    q.poll(T0);
    q.addLast("b", "g", "p0", "b0");
    assertThat(q.untilServable(T0)).contains(Duration.ZERO);
  }
}
