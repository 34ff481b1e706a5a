package dev.protomolt.core.graph;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's graph versions: immutable {@link GraphTopology} snapshots keyed (graph_id,
 * version), plus a separate pointer per graph to its active version.
 *
 * <ul>
 *   <li>Activation installs the snapshot first and flips the pointer second, so any reader sees
 *       one whole version and never the nodes of one with the edges of another.
 *   <li>Deactivation bumps a per-graph monotonic epoch that is never removed (not even when the
 *       graph is deleted); an activation carrying an older epoch is refused.
 *   <li>Versions unused for {@code idleExpiry} are dropped; a later read reloads exactly that
 *       version from the {@link GraphVersionSource}. A version the source no longer has fails
 *       loud with {@link OrphanedPinException}.
 * </ul>
 */
public final class GraphCache {

  /** The seed's default idle expiry (pipestream.engine.graph-cache.version-ttl). */
  public static final Duration DEFAULT_IDLE_EXPIRY = Duration.ofMinutes(30);

  private final GraphVersionSource source;
  private final PipelineCelEnvironment env;
  private final InstantSource clock;
  private final Duration idleExpiry;

  private final Map<GraphVersionKey, Entry> versions = new ConcurrentHashMap<>();
  private final Map<String, Long> activeVersions = new ConcurrentHashMap<>();
  private final Map<String, Long> deactivationEpochs = new ConcurrentHashMap<>();
  private final AtomicLong reloads = new AtomicLong();
  // One monitor per graph: activation and deactivation of one graph serialize, different graphs do
  // not.
  private final Map<String, Object> locks = new ConcurrentHashMap<>();

  public GraphCache(
      GraphVersionSource source,
      PipelineCelEnvironment env,
      InstantSource clock,
      Duration idleExpiry) {
    this.source = Objects.requireNonNull(source, "source");
    this.env = Objects.requireNonNull(env, "env");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (idleExpiry.isNegative() || idleExpiry.isZero()) {
      throw new IllegalArgumentException("idleExpiry must be positive, was " + idleExpiry);
    }
    this.idleExpiry = idleExpiry;
  }

  /** The current deactivation epoch of a graph; 0 before its first deactivation. */
  public long deactivationEpoch(String graphId) {
    return deactivationEpochs.getOrDefault(graphId, 0L);
  }

  /**
   * Installs {@code graph} as the active version. {@code observedEpoch} is the deactivation epoch
   * the caller saw when it read the graph; if a deactivation happened since, the install is
   * refused with {@link StaleActivationException}.
   */
  public GraphTopology activate(PipelineGraph graph, long observedEpoch) {
    // Compile outside the lock: it is the slow part and touches nothing shared.
    GraphTopology topology = GraphTopology.load(graph, env);
    GraphVersionKey key = new GraphVersionKey(graph.getGraphId(), graph.getVersion());
    synchronized (lockFor(graph.getGraphId())) {
      long current = deactivationEpoch(graph.getGraphId());
      if (observedEpoch < current) {
        throw new StaleActivationException(
            graph.getGraphId(), graph.getVersion(), observedEpoch, current);
      }
      versions.put(key, new Entry(topology, clock.instant()));
      activeVersions.put(graph.getGraphId(), graph.getVersion());
    }
    return topology;
  }

  /** Caches a version without activating it (a CREATED event, or warming a pinned version). */
  public GraphTopology put(PipelineGraph graph) {
    GraphTopology topology = GraphTopology.load(graph, env);
    versions.put(
        new GraphVersionKey(graph.getGraphId(), graph.getVersion()),
        new Entry(topology, clock.instant()));
    return topology;
  }

  /**
   * Stops new admissions: clears the active pointer and bumps the epoch. Cached versions stay, so
   * documents pinned to them drain. Returns the new epoch.
   */
  public long deactivate(String graphId) {
    synchronized (lockFor(graphId)) {
      long next = deactivationEpoch(graphId) + 1;
      deactivationEpochs.put(graphId, next);
      activeVersions.remove(graphId);
      return next;
    }
  }

  /**
   * Applies a deactivation another process committed at {@code epoch}: the local epoch becomes at
   * least that, and the active pointer is cleared. Idempotent, so a redelivered event is harmless.
   */
  public long observeDeactivation(String graphId, long epoch) {
    synchronized (lockFor(graphId)) {
      long next = Math.max(deactivationEpoch(graphId), epoch);
      deactivationEpochs.put(graphId, next);
      activeVersions.remove(graphId);
      return next;
    }
  }

  /**
   * Forgets a deleted version. The epoch is deliberately kept: it must stay monotonic across a
   * delete and a re-create of the same graph id.
   */
  public void forget(String graphId, long version) {
    versions.remove(new GraphVersionKey(graphId, version));
    activeVersions.remove(graphId, version);
  }

  /** The active version number this instance knows, if any. */
  public Optional<Long> activeVersion(String graphId) {
    return Optional.ofNullable(activeVersions.get(graphId));
  }

  /**
   * The version a document runs on. {@code version == 0} means unpinned: resolve the active
   * version (reloading it from the source when this instance has no pointer yet).
   */
  public Optional<GraphTopology> topology(String graphId, long version) {
    if (version == 0) {
      return active(graphId);
    }
    GraphVersionKey key = new GraphVersionKey(graphId, version);
    Instant now = clock.instant();
    Entry entry = versions.get(key);
    if (entry != null && !entry.idleSince(now, idleExpiry)) {
      versions.put(key, entry.touchedAt(now));
      return Optional.of(entry.topology());
    }
    reloads.incrementAndGet();
    Optional<PipelineGraph> loaded = source.load(graphId, version);
    if (loaded.isEmpty()) {
      versions.remove(key);
      return Optional.empty();
    }
    return Optional.of(put(loaded.get()));
  }

  /**
   * The node a pinned document is about to enter, or a loud {@link OrphanedPinException} naming
   * the node, graph and version when the version or the node is gone.
   */
  public PinnedNode nodePinned(String graphId, long version, String nodeId) {
    GraphTopology topology =
        topology(graphId, version)
            .orElseThrow(() -> OrphanedPinException.versionMissing(graphId, version, nodeId));
    GraphNode node =
        topology
            .node(nodeId)
            .orElseThrow(
                () -> OrphanedPinException.nodeMissing(graphId, topology.version(), nodeId));
    return new PinnedNode(topology, node);
  }

  /** Drops every version idle longer than the expiry; returns how many were dropped. */
  public int evictIdle() {
    Instant now = clock.instant();
    int before = versions.size();
    versions.entrySet().removeIf(e -> e.getValue().idleSince(now, idleExpiry));
    return before - versions.size();
  }

  /** Versions currently held (for tests and diagnostics). */
  public int size() {
    return versions.size();
  }

  /** How many times a miss went to the source. */
  public long reloads() {
    return reloads.get();
  }

  private Optional<GraphTopology> active(String graphId) {
    Long version = activeVersions.get(graphId);
    if (version != null) {
      return topology(graphId, version);
    }
    // Read the epoch before the source so a deactivation that commits meanwhile wins.
    long epoch = deactivationEpoch(graphId);
    reloads.incrementAndGet();
    Optional<PipelineGraph> loaded = source.loadActive(graphId);
    if (loaded.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(activate(loaded.get(), epoch));
    } catch (StaleActivationException e) {
      return Optional.empty();
    }
  }

  private Object lockFor(String graphId) {
    return locks.computeIfAbsent(graphId, k -> new Object());
  }

  /** A node of the exact version a document is pinned to. */
  public record PinnedNode(GraphTopology topology, GraphNode node) {}

  private record Entry(GraphTopology topology, Instant lastAccess) {
    boolean idleSince(Instant now, Duration expiry) {
      return !now.isBefore(lastAccess.plus(expiry));
    }

    Entry touchedAt(Instant now) {
      return new Entry(topology, now);
    }
  }
}
