package dev.protomolt.core.graph.validation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Johnson's algorithm: every elementary cycle of a directed graph, each exactly once. Vertices are
 * taken in a fixed order; for each start vertex s only the strongly connected component of s in
 * the subgraph of vertices not before s is searched, and the blocked set with its B-lists keeps
 * the search from re-walking paths that cannot close back to s.
 */
final class ElementaryCycles {

  private final List<String> order;
  private final Map<String, Set<String>> adjacency;
  private final int limit;
  private final List<List<String>> cycles = new ArrayList<>();

  private Set<String> component;
  private String start;
  private final Set<String> blocked = new HashSet<>();
  private final Map<String, Set<String>> blockedBy = new HashMap<>();
  private final Deque<String> path = new ArrayDeque<>();

  private ElementaryCycles(List<String> order, Map<String, Set<String>> adjacency, int limit) {
    this.order = order;
    this.adjacency = adjacency;
    this.limit = limit;
  }

  /**
   * Finds up to {@code limit} cycles; each is the list of vertices in walk order, starting at its
   * least vertex (by {@code order}) and not repeating it at the end.
   */
  static List<List<String>> find(
      List<String> order, Map<String, Set<String>> adjacency, int limit) {
    ElementaryCycles search = new ElementaryCycles(order, adjacency, limit);
    search.run();
    return search.cycles;
  }

  private void run() {
    for (int i = 0; i < order.size() && cycles.size() < limit; i++) {
      start = order.get(i);
      Set<String> allowed = new HashSet<>(order.subList(i, order.size()));
      component = componentOf(start, allowed);
      if (component.size() == 1 && !neighbours(start).contains(start)) {
        continue;
      }
      blocked.clear();
      blockedBy.clear();
      circuit(start);
    }
  }

  private boolean circuit(String v) {
    boolean closed = false;
    path.addLast(v);
    blocked.add(v);
    for (String w : neighbours(v)) {
      if (cycles.size() >= limit) {
        break;
      }
      if (!component.contains(w)) {
        continue;
      }
      if (w.equals(start)) {
        cycles.add(List.copyOf(path));
        closed = true;
      } else if (!blocked.contains(w) && circuit(w)) {
        closed = true;
      }
    }
    if (closed) {
      unblock(v);
    } else {
      for (String w : neighbours(v)) {
        if (component.contains(w)) {
          blockedBy.computeIfAbsent(w, k -> new HashSet<>()).add(v);
        }
      }
    }
    path.removeLast();
    return closed;
  }

  private void unblock(String u) {
    blocked.remove(u);
    Set<String> waiting = blockedBy.remove(u);
    if (waiting != null) {
      for (String w : waiting) {
        if (blocked.contains(w)) {
          unblock(w);
        }
      }
    }
  }

  private Set<String> neighbours(String v) {
    return adjacency.getOrDefault(v, Set.of());
  }

  /** The strongly connected component of {@code root} within {@code allowed}: reach both ways. */
  private Set<String> componentOf(String root, Set<String> allowed) {
    Set<String> forward = reach(root, allowed, false);
    Set<String> backward = reach(root, allowed, true);
    forward.retainAll(backward);
    return forward;
  }

  private Set<String> reach(String root, Set<String> allowed, boolean reverse) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.push(root);
    seen.add(root);
    while (!todo.isEmpty()) {
      String v = todo.pop();
      for (String w : reverse ? predecessors(v) : neighbours(v)) {
        if (allowed.contains(w) && seen.add(w)) {
          todo.push(w);
        }
      }
    }
    return seen;
  }

  private Map<String, Set<String>> reverse;

  private Set<String> predecessors(String v) {
    if (reverse == null) {
      reverse = new HashMap<>();
      adjacency.forEach(
          (from, tos) ->
              tos.forEach(to -> reverse.computeIfAbsent(to, k -> new LinkedHashSet<>()).add(from)));
    }
    return reverse.getOrDefault(v, Set.of());
  }
}
