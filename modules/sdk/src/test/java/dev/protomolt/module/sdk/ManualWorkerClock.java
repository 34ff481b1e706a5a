package dev.protomolt.module.sdk;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A worker clock that moves only when a test calls {@link #advance(Duration)}. */
final class ManualWorkerClock implements WorkerClock {

  private record Wait(Instant deadline, long order, CompletableFuture<Void> future) {}

  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private long order;
  private final List<Wait> waits = new ArrayList<>();

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public synchronized CompletableFuture<Void> after(Duration delay) {
    CompletableFuture<Void> future = new CompletableFuture<>();
    if (delay.isZero() || delay.isNegative()) {
      future.complete(null);
      return future;
    }
    waits.add(new Wait(now.plus(delay), order++, future));
    return future;
  }

  /** Moves time forward, completing every wait that falls due, in deadline order. */
  void advance(Duration by) {
    Instant target;
    synchronized (this) {
      target = now.plus(by);
    }
    while (true) {
      Wait due;
      synchronized (this) {
        waits.removeIf(wait -> wait.future().isDone());
        due =
            waits.stream()
                .filter(wait -> !wait.deadline().isAfter(target))
                .min(Comparator.comparing(Wait::deadline).thenComparing(Wait::order))
                .orElse(null);
        if (due == null) {
          now = target;
          return;
        }
        waits.remove(due);
        now = due.deadline();
      }
      // Completed outside the lock: callbacks (heartbeats) may schedule further waits.
      due.future().complete(null);
    }
  }

  /** Deadlines still pending, as offsets from now; lets a test see what the worker waits for. */
  synchronized List<Duration> pendingWaits() {
    waits.removeIf(wait -> wait.future().isDone());
    return waits.stream()
        .sorted(Comparator.comparing(Wait::deadline))
        .map(wait -> Duration.between(now, wait.deadline()))
        .toList();
  }

  synchronized Optional<Duration> soonestWait() {
    return pendingWaits().stream().findFirst();
  }
}
