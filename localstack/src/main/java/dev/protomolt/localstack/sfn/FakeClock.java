package dev.protomolt.localstack.sfn;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * A clock that only moves when told to. {@link #advance} fires due timers in deadline order on
 * the calling thread, so a test decides exactly when a retry wakes up or a heartbeat expires.
 */
public final class FakeClock implements Clock {

  private final PriorityQueue<Entry> timers =
      new PriorityQueue<>(Comparator.comparing(Entry::at).thenComparingLong(Entry::sequence));
  private Instant now;
  private long sequence;

  public FakeClock(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public synchronized Timer schedule(Instant at, Runnable action) {
    Entry entry = new Entry(at, sequence++, action);
    timers.add(entry);
    notifyAll();
    return () -> {
      synchronized (FakeClock.this) {
        timers.remove(entry);
      }
    };
  }

  /** Moves time forward by {@code by}, firing every timer that falls due on the way. */
  public void advance(Duration by) {
    Instant target;
    synchronized (this) {
      target = now.plus(by);
    }
    while (true) {
      Entry due;
      synchronized (this) {
        Entry head = timers.peek();
        if (head == null || head.at().isAfter(target)) {
          now = target;
          return;
        }
        due = timers.poll();
        if (due.at().isAfter(now)) {
          now = due.at();
        }
      }
      due.action().run();
    }
  }

  /** Deadlines of the pending timers, earliest first. */
  public synchronized List<Instant> pendingDeadlines() {
    List<Entry> sorted = new ArrayList<>(timers);
    sorted.sort(timers.comparator());
    return sorted.stream().map(Entry::at).toList();
  }

  public synchronized Optional<Instant> nextDeadline() {
    return Optional.ofNullable(timers.peek()).map(Entry::at);
  }

  /**
   * Blocks until at least {@code count} timers are pending, so a test can advance time only once
   * the execution under test is really waiting. {@code patience} only bounds a broken test.
   */
  public synchronized void awaitPendingTimers(int count, Duration patience)
      throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (timers.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("expected " + count + " pending timers, have " + timers.size());
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  private record Entry(Instant at, long sequence, Runnable action) {}
}
