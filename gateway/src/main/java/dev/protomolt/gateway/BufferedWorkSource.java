package dev.protomolt.gateway;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A bounded in-memory queue per module service. It is the source of a single-process gateway fed
 * directly (tests, the drain bench) and the buffering the Kafka source builds on: a popped record
 * is held as in flight until it is settled or re-buffered at the head.
 */
public final class BufferedWorkSource implements WorkSource {

  private final int capacityPerModule;
  private final Map<String, Deque<PendingWork>> queues = new HashMap<>();
  private final Map<String, List<CompletableFuture<Void>>> waiters = new HashMap<>();
  private final Set<PendingWork> inFlight = Collections.newSetFromMap(new IdentityHashMap<>());
  private long sequence;

  public BufferedWorkSource(int capacityPerModule) {
    if (capacityPerModule < 1) {
      throw new IllegalArgumentException(
          "capacityPerModule must be >= 1, got " + capacityPerModule);
    }
    this.capacityPerModule = capacityPerModule;
  }

  /**
   * Appends a record at the tail of its module's queue.
   *
   * @return false when the queue is full (the caller keeps the record and offers it later)
   */
  public boolean offer(String moduleId, String key, byte[] payload) {
    List<CompletableFuture<Void>> wake;
    synchronized (this) {
      Deque<PendingWork> q = queues.computeIfAbsent(moduleId, m -> new ArrayDeque<>());
      if (q.size() >= capacityPerModule) {
        return false;
      }
      q.addLast(new PendingWork(moduleId, key, payload, ++sequence));
      wake = takeWaiters(moduleId);
    }
    wake.forEach(f -> f.complete(null));
    return true;
  }

  @Override
  public synchronized Optional<PendingWork> poll(String moduleId) {
    Deque<PendingWork> q = queues.get(moduleId);
    PendingWork w = q == null ? null : q.pollFirst();
    if (w != null) {
      inFlight.add(w);
    }
    return Optional.ofNullable(w);
  }

  @Override
  public synchronized CompletableFuture<Void> arrival(String moduleId) {
    Deque<PendingWork> q = queues.get(moduleId);
    if (q != null && !q.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    waiters.computeIfAbsent(moduleId, m -> new ArrayList<>()).add(f);
    return f;
  }

  @Override
  public void rebuffer(PendingWork work) {
    List<CompletableFuture<Void>> wake;
    synchronized (this) {
      if (!inFlight.remove(work)) {
        throw new IllegalStateException("record " + work.key() + " is not in flight");
      }
      // At the head, over capacity if need be: a record once accepted is never refused.
      queues.computeIfAbsent(work.moduleId(), m -> new ArrayDeque<>()).addFirst(work);
      wake = takeWaiters(work.moduleId());
    }
    wake.forEach(f -> f.complete(null));
  }

  @Override
  public synchronized void settle(PendingWork work) {
    if (!inFlight.remove(work)) {
      throw new IllegalStateException("record " + work.key() + " is not in flight");
    }
  }

  /** Records buffered (not in flight) for a module. */
  public synchronized int buffered(String moduleId) {
    Deque<PendingWork> q = queues.get(moduleId);
    return q == null ? 0 : q.size();
  }

  /** Records handed out and neither settled nor re-buffered yet. */
  public synchronized int inFlight() {
    return inFlight.size();
  }

  /** The keys buffered for a module, head first. */
  public synchronized List<String> keys(String moduleId) {
    Deque<PendingWork> q = queues.get(moduleId);
    return q == null ? List.of() : q.stream().map(PendingWork::key).toList();
  }

  private List<CompletableFuture<Void>> takeWaiters(String moduleId) {
    List<CompletableFuture<Void>> w = waiters.remove(moduleId);
    // Abandoned (cancelled) waits are dropped here rather than tracked on cancel.
    return w == null ? List.of() : w.stream().filter(f -> !f.isDone()).toList();
  }
}
