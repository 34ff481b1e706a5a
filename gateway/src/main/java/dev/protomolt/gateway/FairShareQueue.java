package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;
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
 * One module service's buffered records, served in turns at three levels (decisions 1652, 1658):
 * the accounts holding records take turns of their weight in records each (deficit round-robin
 * with every record costing one), skipping an account whose rate limit has no token left; inside
 * one account its graphs take turns one record each; inside one graph its lanes (the Kafka
 * partitions) take turns, each lane first in, first out.
 *
 * <p>The bound, for an account {@code a} of weight {@code w} with no rate limit: with the other
 * waiting accounts' weights summing to {@code W}, {@code a}'s {@code j}-th record (from 0) is
 * served at turn {@code (⌊j/w⌋ + 1)·W + j} (from 0) at the latest, however many the others hold;
 * with every weight 1 and {@code k} accounts that is decision 1652's {@code k·j + k − 1}. A
 * rate-limited account only ever gives its turn away, so it never lengthens the others' bound.
 * Not thread-safe: its owner serializes access.
 *
 * @param <T> the record type
 */
final class FairShareQueue<T> {

  /** Round-robin over named children; a leaf (no children) holds its records first in, first out. */
  private static final class Level<T> {
    final Map<String, Level<T>> byName = new HashMap<>();
    final Deque<String> order = new ArrayDeque<>();
    final Deque<T> items = new ArrayDeque<>();
    int size;

    Level<T> child(String name, boolean first) {
      Level<T> c = byName.get(name);
      if (c == null) {
        c = new Level<>();
        byName.put(name, c);
        if (first) {
          order.addFirst(name);
        } else {
          order.addLast(name);
        }
      } else if (first) {
        order.remove(name);
        order.addFirst(name);
      }
      return c;
    }

    void add(String[] path, int depth, T item, boolean first) {
      size++;
      if (depth == path.length) {
        if (first) {
          items.addFirst(item);
        } else {
          items.addLast(item);
        }
        return;
      }
      child(path[depth], first).add(path, depth + 1, item, first);
    }

    /** The head child's next record, the head moving to the back of its turn. */
    T poll() {
      size--;
      if (byName.isEmpty()) {
        return items.pollFirst();
      }
      String name = order.pollFirst();
      Level<T> c = byName.get(name);
      T item = c.poll();
      if (c.size == 0) {
        byName.remove(name);
      } else {
        order.addLast(name);
      }
      return item;
    }

    int removeIf(Predicate<? super T> gone) {
      int before = size;
      if (byName.isEmpty()) {
        items.removeIf(gone);
        size = items.size();
        return before - size;
      }
      for (Iterator<String> it = order.iterator(); it.hasNext(); ) {
        String name = it.next();
        Level<T> c = byName.get(name);
        size -= c.removeIf(gone);
        if (c.size == 0) {
          byName.remove(name);
          it.remove();
        }
      }
      return before - size;
    }

    void forEach(Consumer<? super T> visit) {
      items.forEach(visit);
      byName.values().forEach(c -> c.forEach(visit));
    }
  }

  /**
   * One account's rate limit: a token bucket of one second's worth, refilled continuously. Kept
   * while the account has no records, so draining and refilling the buffer cannot reset it.
   */
  private static final class Bucket {
    final int perSecond;
    double tokens;
    Instant refilled;

    Bucket(int perSecond, Instant now) {
      this.perSecond = perSecond;
      this.tokens = perSecond;
      this.refilled = now;
    }

    void refill(Instant now) {
      if (now.isAfter(refilled)) {
        double seconds = Duration.between(refilled, now).toNanos() / 1e9;
        tokens = Math.min(perSecond, tokens + seconds * perSecond);
        refilled = now;
      }
    }

    /** How long until one token is there; zero when it is. */
    Duration untilToken() {
      if (tokens >= 1) {
        return Duration.ZERO;
      }
      return Duration.ofNanos((long) Math.ceil((1 - tokens) * 1e9 / perSecond));
    }
  }

  private final AccountShares shares;
  private final Level<T> accounts = new Level<>();
  private final Map<String, Integer> turnLeft = new HashMap<>();
  private final Map<String, Bucket> buckets = new HashMap<>();

  /** Every account weight 1 and unlimited: the equal turns of decision 1652. */
  FairShareQueue() {
    this(AccountShares.EQUAL);
  }

  FairShareQueue(AccountShares shares) {
    this.shares = Objects.requireNonNull(shares, "shares");
  }

  /** Appends {@code item} at the tail of its lane, in its graph, under its account. */
  void addLast(String account, String graph, String lane, T item) {
    Objects.requireNonNull(item, "item");
    accounts.add(new String[] {account, graph, lane}, 0, item, false);
  }

  /**
   * Puts {@code item} back at the head of its lane, with its account, graph and lane first in their
   * turns: a record whose stream died before its ack is the next one served, as before. Its
   * account gets back the token serving it took, since no module got it.
   */
  void addFirst(String account, String graph, String lane, T item, Instant now) {
    Objects.requireNonNull(item, "item");
    accounts.add(new String[] {account, graph, lane}, 0, item, true);
    turnLeft.merge(account, 1, Math::max);
    Bucket b = buckets.get(account);
    if (b != null) {
      b.refill(now);
      b.tokens = Math.min(b.perSecond, b.tokens + 1);
    }
  }

  /**
   * The next record in turn at {@code now}: the head account's, while its turn lasts and its rate
   * limit holds a token; an account out of tokens gives its turn to the next. Empty when nothing
   * is buffered or every account holding records is out of tokens ({@link #untilServable} says
   * for how long).
   */
  Optional<T> poll(Instant now) {
    for (int tries = accounts.order.size(); tries > 0; tries--) {
      String account = accounts.order.peekFirst();
      Bucket bucket = bucket(account, now);
      if (bucket != null && bucket.tokens < 1) {
        endTurn(account);
        continue;
      }
      Level<T> graphs = accounts.byName.get(account);
      T item = graphs.poll();
      accounts.size--;
      if (bucket != null) {
        bucket.tokens -= 1;
      }
      if (graphs.size == 0) {
        accounts.order.pollFirst();
        accounts.byName.remove(account);
        turnLeft.remove(account);
      } else {
        int left = turnLeft.getOrDefault(account, shares.of(account).weight()) - 1;
        if (left <= 0) {
          endTurn(account);
        } else {
          turnLeft.put(account, left);
        }
      }
      return Optional.of(item);
    }
    return Optional.empty();
  }

  /**
   * How long from {@code now} until {@link #poll} can serve a record: zero when it can now, the
   * soonest token of the rate-limited accounts holding records otherwise, empty when nothing is
   * buffered.
   */
  Optional<Duration> untilServable(Instant now) {
    Duration soonest = null;
    for (String account : accounts.order) {
      Bucket b = bucket(account, now);
      Duration wait = b == null ? Duration.ZERO : b.untilToken();
      if (soonest == null || wait.compareTo(soonest) < 0) {
        soonest = wait;
      }
    }
    return Optional.ofNullable(soonest);
  }

  /** Drops every record {@code gone} matches (a revoked partition's), keeping everyone's turns. */
  void removeIf(Predicate<? super T> gone) {
    accounts.removeIf(gone);
    turnLeft.keySet().retainAll(accounts.byName.keySet());
  }

  /** Visits every queued record, in no particular order (the backlog signals' oldest age). */
  void forEach(Consumer<? super T> visit) {
    accounts.forEach(visit);
  }

  int size() {
    return accounts.size;
  }

  boolean isEmpty() {
    return accounts.size == 0;
  }

  /** Records queued under {@code account}, over all its graphs and lanes. */
  int size(String account) {
    Level<T> graphs = accounts.byName.get(account);
    return graphs == null ? 0 : graphs.size;
  }

  private void endTurn(String account) {
    accounts.order.addLast(accounts.order.pollFirst());
    turnLeft.remove(account);
  }

  /** The account's bucket refilled to {@code now}, or null when it has no rate limit. */
  private Bucket bucket(String account, Instant now) {
    var limit = shares.of(account).recordsPerSecond();
    if (limit.isEmpty()) {
      return null;
    }
    Bucket b = buckets.computeIfAbsent(account, a -> new Bucket(limit.getAsInt(), now));
    b.refill(now);
    return b;
  }
}
