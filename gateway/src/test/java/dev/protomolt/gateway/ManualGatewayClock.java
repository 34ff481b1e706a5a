package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A clock tests move by hand; due waits complete on the calling thread, in order. */
final class ManualGatewayClock implements GatewayClock {

  private record Wait(Instant due, CompletableFuture<Void> future) {}

  private Instant now;
  private final List<Wait> waits = new ArrayList<>();

  ManualGatewayClock(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public synchronized CompletableFuture<Void> after(Duration delay) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    waits.add(new Wait(now.plus(delay), f));
    return f;
  }

  void advance(Duration by) {
    Instant target;
    synchronized (this) {
      target = now.plus(by);
    }
    while (true) {
      Wait next;
      synchronized (this) {
        next =
            waits.stream()
                .filter(w -> !w.due().isAfter(target))
                .min(Comparator.comparing(Wait::due))
                .orElse(null);
        if (next == null) {
          now = target;
          return;
        }
        waits.remove(next);
        now = next.due();
      }
      next.future().complete(null);
    }
  }

  /** Waits not yet due and not abandoned. */
  synchronized long pendingWaits() {
    return waits.stream().filter(w -> !w.future().isDone()).count();
  }
}
