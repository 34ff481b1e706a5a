package dev.protomolt.gateway;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this gateway task's Work streams are doing per module service right now: streams open,
 * units held by a module, and the ack latency since the last look; and per graph node, the units
 * held now and how its hops were settled since the task started counting (decision 1659). The
 * backlog signals read it each minute and the backlog door on request; the sessions update it as
 * they change phase.
 */
public final class ModuleActivity {

  /** How this task ended one hop of a node, as the compiled Work state goes on from it. */
  enum Settled {
    /** SendTaskSuccess with the module's result or its no-op: the walk goes on. */
    DONE,
    /** Module.Reject: the Work state catches it into the node's Rejected state. */
    REJECTED,
    /**
     * Module.Retryable: the Work state retries it, and dead-letters only past its attempts, which
     * the gateway does not know; dead letters are counted on their topics instead (decision 1659).
     */
    RETRIED
  }

  /**
   * One graph node's work on this task.
   *
   * @param unitsInFlight units of the node served to a module and not yet acked, now
   * @param done hops settled {@link Settled#DONE} since {@link #countingSince}, and likewise the
   *     others
   */
  public record NodeActivity(
      String graphId,
      String nodeId,
      String moduleId,
      long unitsInFlight,
      long done,
      long rejected,
      long retried) {}

  private record NodeKey(String graphId, String nodeId, String moduleId) {}

  private static final class Node {
    final AtomicLong inFlight = new AtomicLong();
    final AtomicLong[] settled = new AtomicLong[Settled.values().length];

    Node() {
      for (int i = 0; i < settled.length; i++) {
        settled[i] = new AtomicLong();
      }
    }
  }

  /** The ack latencies since the last {@link #takeAckLatency} of one module service. */
  public record AckLatency(long acks, long totalMillis) {
    /** The mean over the acks, or empty when there was none. */
    public OptionalDouble meanMillis() {
      return acks == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) totalMillis / acks);
    }
  }

  private static final class Module {
    final AtomicLong streams = new AtomicLong();
    final AtomicLong inFlight = new AtomicLong();
    long acks;
    long ackMillis;
  }

  private final Map<String, Module> modules = new ConcurrentHashMap<>();
  private final Map<NodeKey, Node> nodes = new ConcurrentHashMap<>();
  private final Instant countingSince;

  /**
   * @param countingSince when this task started counting its nodes' settled hops
   */
  public ModuleActivity(Instant countingSince) {
    this.countingSince = Objects.requireNonNull(countingSince, "countingSince");
  }

  void streamOpened(String moduleId) {
    module(moduleId).streams.incrementAndGet();
  }

  void streamClosed(String moduleId) {
    module(moduleId).streams.decrementAndGet();
  }

  void unitServed(String moduleId) {
    module(moduleId).inFlight.incrementAndGet();
  }

  void unitReleased(String moduleId) {
    module(moduleId).inFlight.decrementAndGet();
  }

  void acked(String moduleId, Duration latency) {
    Module m = module(moduleId);
    synchronized (m) {
      m.acks++;
      m.ackMillis += Math.max(0, latency.toMillis());
    }
  }

  /** A record of the node was popped: its row exists from now on, even with every count 0. */
  void nodeSeen(String moduleId, String graphId, String nodeId) {
    node(moduleId, graphId, nodeId);
  }

  void nodeServed(String moduleId, String graphId, String nodeId) {
    node(moduleId, graphId, nodeId).inFlight.incrementAndGet();
  }

  void nodeReleased(String moduleId, String graphId, String nodeId) {
    node(moduleId, graphId, nodeId).inFlight.decrementAndGet();
  }

  void nodeSettled(String moduleId, String graphId, String nodeId, Settled how) {
    node(moduleId, graphId, nodeId).settled[how.ordinal()].incrementAndGet();
  }

  /** When the settled counts of {@link #nodes} began: this task's start. */
  public Instant countingSince() {
    return countingSince;
  }

  /** Every node this task has popped a record of, by graph id, node id and module service. */
  public List<NodeActivity> nodes() {
    return nodes.entrySet().stream()
        .map(
            e -> {
              NodeKey k = e.getKey();
              Node n = e.getValue();
              return new NodeActivity(
                  k.graphId(),
                  k.nodeId(),
                  k.moduleId(),
                  n.inFlight.get(),
                  n.settled[Settled.DONE.ordinal()].get(),
                  n.settled[Settled.REJECTED.ordinal()].get(),
                  n.settled[Settled.RETRIED.ordinal()].get());
            })
        .sorted(
            Comparator.comparing(NodeActivity::graphId)
                .thenComparing(NodeActivity::nodeId)
                .thenComparing(NodeActivity::moduleId))
        .toList();
  }

  /** Work streams of the module open on this task: waiting for a record or serving one. */
  public long streamsOpen(String moduleId) {
    Module m = modules.get(moduleId);
    return m == null ? 0 : m.streams.get();
  }

  /** Units served to the module and not yet acked, re-buffered or drained. */
  public long unitsInFlight(String moduleId) {
    Module m = modules.get(moduleId);
    return m == null ? 0 : m.inFlight.get();
  }

  /** The acks settled since the last call, and resets them: one minute's figure at a time. */
  public AckLatency takeAckLatency(String moduleId) {
    Module m = modules.get(moduleId);
    if (m == null) {
      return new AckLatency(0, 0);
    }
    synchronized (m) {
      AckLatency out = new AckLatency(m.acks, m.ackMillis);
      m.acks = 0;
      m.ackMillis = 0;
      return out;
    }
  }

  private Module module(String moduleId) {
    return modules.computeIfAbsent(moduleId, k -> new Module());
  }

  private Node node(String moduleId, String graphId, String nodeId) {
    return nodes.computeIfAbsent(new NodeKey(graphId, nodeId, moduleId), k -> new Node());
  }
}
