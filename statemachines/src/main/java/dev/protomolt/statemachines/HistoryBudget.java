package dev.protomolt.statemachines;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates, before deploying, the worst-case number of history events one execution can write
 * while a document walks one path of the graph, and refuses a graph whose worst path would exceed
 * the 25,000-event limit of a Standard execution (AWS fails such an execution mid-flight).
 *
 * <p>A hop that routes to exactly one destination continues in the same execution, so every path
 * of the graph may run in one execution; a fan-out ends the execution's path (children start
 * fresh). The estimate is an upper bound: every retrier exhausted, every fan-out edge taken. A graph
 * with a cycle is bounded by its edges' {@code max_hops}: once a stream has made that many hops no
 * cycle edge is taken again, so a path has at most {@code maxHops + nodeCount} hops.
 */
final class HistoryBudget {

  /** The Standard-workflow limit on events in one execution's history. */
  static final int MAX_EVENTS = 25_000;

  /** ExecutionStarted + ExecutionSucceeded/Failed, and the Start Choice's entered/exited pair. */
  static final int EXECUTION_OVERHEAD = 4;

  /** Per attempt of a Task: scheduled, started, submitted, and succeeded/failed/timed out. */
  static final int EVENTS_PER_ATTEMPT = 4;

  /** Entered and exited events of any state. */
  static final int EVENTS_PER_STATE = 2;

  /** The worst path found and its estimated event count. */
  record Estimate(List<String> path, long events, boolean cyclic) {}

  /** A node of the estimate: its main-line cost (a hop that continues) and worst terminal cost. */
  record NodeCost(long main, long terminal) {}

  /** A directed edge with the hop bound that applies to it (0 = unbounded). */
  record Edge(String edgeId, String from, String to, int maxHops) {}

  private HistoryBudget() {}

  /** Worst-case events of one state as compiled. */
  @SuppressWarnings("unchecked")
  static long stateCost(Map<String, Object> state) {
    String type = (String) state.get("Type");
    return switch (type) {
      case "Task" -> EVENTS_PER_STATE + EVENTS_PER_ATTEMPT * (1L + retryAttempts(state));
      case "Map" -> {
        Map<String, Object> processor = (Map<String, Object>) state.get("ItemProcessor");
        Map<String, Object> states = (Map<String, Object>) processor.get("States");
        long perItem = EVENTS_PER_STATE;
        for (Object inner : states.values()) {
          perItem += stateCost((Map<String, Object>) inner);
        }
        // Items are bounded by the caller (one per outgoing edge); see mapCost.
        yield perItem;
      }
      default -> EVENTS_PER_STATE;
    };
  }

  /** Worst-case events of a fan-out Map state with at most {@code items} destinations. */
  static long mapCost(Map<String, Object> state, int items) {
    return 2L * EVENTS_PER_STATE
        + items * stateCost(state)
        + EVENTS_PER_STATE * (1L + retryAttempts(state));
  }

  private static long retryAttempts(Map<String, Object> state) {
    long attempts = 0;
    if (state.get("Retry") instanceof List<?> retriers) {
      for (Object r : retriers) {
        if (((Map<?, ?>) r).get("MaxAttempts") instanceof Integer max) {
          attempts += max;
        } else {
          attempts += 3; // the Step Functions default when MaxAttempts is omitted
        }
      }
    }
    return attempts;
  }

  /**
   * The worst path over all entry points (Start can enter at any node).
   *
   * @param costs per node id, in graph order
   * @param edges every edge of the graph
   * @param where collects the problem naming the path when the limit is exceeded
   */
  static Estimate estimate(
      Map<String, NodeCost> costs, List<Edge> edges, List<CompileProblem> where) {
    Map<String, List<Edge>> out = new LinkedHashMap<>();
    costs.keySet().forEach(id -> out.put(id, new ArrayList<>()));
    edges.forEach(e -> out.get(e.from()).add(e));
    List<List<String>> cycles = stronglyConnected(costs.keySet().stream().toList(), out);
    if (cycles.isEmpty()) {
      return acyclic(costs, out, where);
    }
    return cyclic(costs, edges, cycles, where);
  }

  private static Estimate acyclic(
      Map<String, NodeCost> costs, Map<String, List<Edge>> out, List<CompileProblem> problems) {
    Map<String, Long> best = new HashMap<>();
    Map<String, String> next = new HashMap<>();
    // Reverse topological order by repeated depth-first finishing; ids are visited in graph order
    // so ties resolve the same way every time.
    List<String> order = new ArrayList<>();
    Map<String, Boolean> seen = new HashMap<>();
    for (String id : costs.keySet()) {
      postOrder(id, out, seen, order);
    }
    for (String id : order) {
      NodeCost cost = costs.get(id);
      long tail = cost.terminal();
      String via = null;
      for (Edge e : out.get(id)) {
        long candidate = best.get(e.to());
        if (candidate > tail) {
          tail = candidate;
          via = e.to();
        }
      }
      best.put(id, cost.main() + tail);
      if (via != null) {
        next.put(id, via);
      }
    }
    String start = null;
    long worst = -1;
    for (String id : costs.keySet()) {
      if (best.get(id) > worst) {
        worst = best.get(id);
        start = id;
      }
    }
    List<String> path = new ArrayList<>();
    for (String at = start; at != null; at = next.get(at)) {
      path.add(at);
    }
    long events = worst + EXECUTION_OVERHEAD;
    if (events > MAX_EVENTS) {
      problems.add(
          new CompileProblem(
              "document path " + String.join(" -> ", path),
              "history-size",
              "one execution walking this path may write up to "
                  + events
                  + " history events (every retry exhausted), over the "
                  + MAX_EVENTS
                  + "-event limit of a Standard execution; shorten the path, split it with a"
                  + " fan-out, or lower its retry attempts"));
    }
    return new Estimate(List.copyOf(path), events, false);
  }

  private static Estimate cyclic(
      Map<String, NodeCost> costs,
      List<Edge> edges,
      List<List<String>> cycles,
      List<CompileProblem> problems) {
    Map<String, Integer> component = new HashMap<>();
    for (int i = 0; i < cycles.size(); i++) {
      for (String id : cycles.get(i)) {
        component.put(id, i);
      }
    }
    int hopBound = 0;
    boolean unbounded = false;
    for (Edge e : edges) {
      Integer from = component.get(e.from());
      if (from != null && from.equals(component.get(e.to()))) {
        if (e.maxHops() <= 0) {
          unbounded = true;
          problems.add(
              new CompileProblem(
                  "edge '" + e.edgeId() + "' (" + e.from() + " -> " + e.to() + ")",
                  "history-size",
                  "the edge closes a cycle among nodes "
                      + String.join(", ", cycles.get(from))
                      + " but neither it nor settings.default_max_hops sets max_hops, so the"
                      + " history of a document looping here cannot be bounded"));
        }
        hopBound = Math.max(hopBound, e.maxHops());
      }
    }
    long maxMain = costs.values().stream().mapToLong(NodeCost::main).max().orElse(0);
    long maxTerminal = costs.values().stream().mapToLong(NodeCost::terminal).max().orElse(0);
    long events = (long) (hopBound + costs.size()) * maxMain + maxTerminal + EXECUTION_OVERHEAD;
    List<String> cycle = cycles.getFirst();
    if (!unbounded && events > MAX_EVENTS) {
      problems.add(
          new CompileProblem(
              "document path looping among nodes "
                  + String.join(", ", cycle)
                  + " (up to max_hops "
                  + hopBound
                  + " hops)",
              "history-size",
              "one execution looping on this cycle may write up to "
                  + events
                  + " history events, over the "
                  + MAX_EVENTS
                  + "-event limit of a Standard execution; lower max_hops on the cycle's edges"));
    }
    return new Estimate(List.copyOf(cycle), events, true);
  }

  private static void postOrder(
      String id, Map<String, List<Edge>> out, Map<String, Boolean> seen, List<String> order) {
    if (seen.putIfAbsent(id, Boolean.TRUE) != null) {
      return;
    }
    for (Edge e : out.get(id)) {
      postOrder(e.to(), out, seen, order);
    }
    order.add(id);
  }

  /** Tarjan's algorithm; returns only components that contain a cycle (size > 1 or a self-loop). */
  private static List<List<String>> stronglyConnected(
      List<String> ids, Map<String, List<Edge>> out) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Map<String, Boolean> onStack = new HashMap<>();
    List<List<String>> result = new ArrayList<>();
    int[] counter = {0};
    for (String id : ids) {
      if (!index.containsKey(id)) {
        connect(id, out, index, low, stack, onStack, result, counter);
      }
    }
    return result;
  }

  private static void connect(
      String v,
      Map<String, List<Edge>> out,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Map<String, Boolean> onStack,
      List<List<String>> result,
      int[] counter) {
    index.put(v, counter[0]);
    low.put(v, counter[0]);
    counter[0]++;
    stack.push(v);
    onStack.put(v, true);
    boolean selfLoop = false;
    for (Edge e : out.get(v)) {
      String w = e.to();
      if (w.equals(v)) {
        selfLoop = true;
      }
      if (!index.containsKey(w)) {
        connect(w, out, index, low, stack, onStack, result, counter);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (Boolean.TRUE.equals(onStack.get(w))) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> members = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.put(w, false);
        members.add(w);
      } while (!w.equals(v));
      if (members.size() > 1 || selfLoop) {
        result.add(members.reversed());
      }
    }
  }
}
