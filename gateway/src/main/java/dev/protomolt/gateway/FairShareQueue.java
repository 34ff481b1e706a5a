package dev.protomolt.gateway;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One module service's buffered records, served in turns at two levels (decision 1652): the
 * fairness keys (the documents' accounts) that hold records take turns, and inside one key its
 * lanes (the Kafka partitions the records came from) take turns, each lane first in, first out.
 * With {@code k} accounts waiting, an account's next record is served after at most {@code k - 1}
 * records of the others, however many the others have queued, and one busy partition cannot
 * starve another of the same account. Not thread-safe: its owner serializes access.
 *
 * @param <T> the record type
 */
final class FairShareQueue<T> {

  /** Round-robin over named FIFO queues: the shape of both levels. */
  private static final class Turns<V> {
    final Map<String, V> byName = new HashMap<>();
    final Deque<String> order = new ArrayDeque<>();

    V getOrAdd(String name, java.util.function.Supplier<V> fresh, boolean first) {
      V v = byName.get(name);
      if (v == null) {
        v = fresh.get();
        byName.put(name, v);
        if (first) {
          order.addFirst(name);
        } else {
          order.addLast(name);
        }
      } else if (first) {
        order.remove(name);
        order.addFirst(name);
      }
      return v;
    }
  }

  private final Turns<Turns<Deque<T>>> keys = new Turns<>();
  private final Map<String, Integer> sizes = new HashMap<>();
  private int size;

  /** Appends {@code item} at the tail of its lane under {@code key}. */
  void addLast(String key, String lane, T item) {
    Objects.requireNonNull(item, "item");
    keys.getOrAdd(key, Turns::new, false).getOrAdd(lane, ArrayDeque::new, false).addLast(item);
    count(key, 1);
  }

  /**
   * Puts {@code item} back at the head of its lane, with its key and lane first in their turns: a
   * record whose stream died before its ack is the next one served, as before.
   */
  void addFirst(String key, String lane, T item) {
    Objects.requireNonNull(item, "item");
    keys.getOrAdd(key, Turns::new, true).getOrAdd(lane, ArrayDeque::new, true).addFirst(item);
    count(key, 1);
  }

  /** The next record in turn, its key and lane moving to the back of their turns. */
  Optional<T> poll() {
    String key = keys.order.pollFirst();
    if (key == null) {
      return Optional.empty();
    }
    Turns<Deque<T>> lanes = keys.byName.get(key);
    String lane = lanes.order.pollFirst();
    Deque<T> q = lanes.byName.get(lane);
    T item = q.pollFirst();
    if (q.isEmpty()) {
      lanes.byName.remove(lane);
    } else {
      lanes.order.addLast(lane);
    }
    if (lanes.byName.isEmpty()) {
      keys.byName.remove(key);
    } else {
      keys.order.addLast(key);
    }
    count(key, -1);
    return Optional.of(item);
  }

  /** Drops every record {@code gone} matches (a revoked partition's), keeping everyone's turns. */
  void removeIf(Predicate<? super T> gone) {
    for (Iterator<String> k = keys.order.iterator(); k.hasNext(); ) {
      String key = k.next();
      Turns<Deque<T>> lanes = keys.byName.get(key);
      for (Iterator<String> l = lanes.order.iterator(); l.hasNext(); ) {
        String lane = l.next();
        Deque<T> q = lanes.byName.get(lane);
        int before = q.size();
        q.removeIf(gone);
        count(key, q.size() - before);
        if (q.isEmpty()) {
          lanes.byName.remove(lane);
          l.remove();
        }
      }
      if (lanes.byName.isEmpty()) {
        keys.byName.remove(key);
        k.remove();
      }
    }
  }

  /** Visits every queued record, in no particular order (the backlog signals' oldest age). */
  void forEach(Consumer<? super T> visit) {
    keys.byName.values().forEach(lanes -> lanes.byName.values().forEach(q -> q.forEach(visit)));
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Records queued under {@code key}, over all its lanes. */
  int size(String key) {
    return sizes.getOrDefault(key, 0);
  }

  private void count(String key, int delta) {
    size += delta;
    sizes.merge(key, delta, (a, b) -> a + b == 0 ? null : a + b);
  }
}
