package dev.protomolt.engine.graphs;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.Deactivation;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.VersionPins;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.proto.config.v1.GraphMode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.proto.config.v1.ValidationViolation;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Graph lifecycle: validate, persist, activate, deactivate, delete, and announce each change on
 * graph-updates. The store is the system of record; an event is published after its change
 * commits, and every operation is safe to retry, so a retried call re-announces a change whose
 * broadcast failed.
 */
public final class GraphAdminService {

  private final GraphStore store;
  private final VersionPins pins;
  private final GraphEventPublisher events;
  private final GraphValidator validator;
  private final InstantSource clock;
  private volatile Deployment deployment;

  /**
   * Where activation deploys a graph version: its state machine and its {@code active} alias.
   * {@code GraphActivationService} is the one implementation and attaches itself when it is
   * constructed; without one, activation only flips the store (the store-only admin tests).
   */
  public interface Deployment {

    /**
     * Makes sure the version is compiled and published as a state machine version whose ARN is
     * recorded beside it, and returns that ARN. A version that already has one is not republished.
     */
    String deploy(PipelineGraph graph);

    /** Moves the graph's {@code active} alias onto {@code versionArn} (rollback moves it back). */
    void pointActive(String versionArn);
  }

  /** Attaches the deployment every activation, rollback and create-and-activate goes through. */
  public void deployThrough(Deployment deployment) {
    this.deployment = Objects.requireNonNull(deployment, "deployment");
  }

  public GraphAdminService(
      GraphStore store,
      VersionPins pins,
      GraphEventPublisher events,
      GraphValidator validator,
      InstantSource clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.pins = Objects.requireNonNull(pins, "pins");
    this.events = Objects.requireNonNull(events, "events");
    this.validator = Objects.requireNonNull(validator, "validator");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Validates in the graph's deploy mode and stages it as a new inactive version. */
  public StoredGraph create(PipelineGraph graph, OptionalLong expectedVersion, String createdBy) {
    requireValid(graph, deployMode(graph));
    StoredGraph stored = store.create(graph, expectedVersion, createdBy, clock.instant());
    announce(
        GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED,
        stored.graph(),
        stored.graph().getVersion(),
        store.deactivationEpoch(graph.getGraphId()),
        "created",
        stored.stateMachineVersionArn());
    return stored;
  }

  /** Creates a version and activates exactly that version; a deactivation in between wins. */
  public StoredGraph createAndActivate(
      PipelineGraph graph, OptionalLong expectedVersion, String createdBy) {
    long observedEpoch = store.deactivationEpoch(graph.getGraphId());
    StoredGraph created = create(graph, expectedVersion, createdBy);
    return activateAt(created.graph(), observedEpoch);
  }

  /** Activates a stored version (also the rollback: activating an older version). */
  public StoredGraph activate(String graphId, String clusterId, long version) {
    requireRef(graphId, clusterId, version);
    // Read the epoch before the version, so a deactivation committed after this read fences us.
    long observedEpoch = store.deactivationEpoch(graphId);
    StoredGraph stored =
        store
            .get(graphId, version)
            .filter(s -> s.graph().getClusterId().equals(clusterId))
            .orElseThrow(
                () ->
                    new GraphAdminException(
                        Reason.NOT_FOUND,
                        "graph '"
                            + graphId
                            + "' version "
                            + version
                            + " does not exist in cluster '"
                            + clusterId
                            + "'"));
    return activateAt(stored.graph(), observedEpoch);
  }

  /**
   * Activates a snapshot the caller read at {@code observedEpoch}. Exposed so the activation race
   * can be exercised: a snapshot read before a deactivation is refused.
   */
  public StoredGraph activateAt(PipelineGraph snapshot, long observedEpoch) {
    // Deploy revalidates the exact payload it ships.
    requireValid(snapshot, deployMode(snapshot));
    Deployment deploying = deployment;
    // Order (decision 0800): publish and record the state machine version, flip the store, and move
    // the alias last, so admission (which resolves the alias) never starts a version the store does
    // not call active. Each step is idempotent: a failure half way is finished by repeating the
    // call.
    if (deploying != null) {
      deploying.deploy(snapshot);
    }
    StoredGraph active =
        store.activate(
            snapshot.getGraphId(), snapshot.getClusterId(), snapshot.getVersion(), observedEpoch);
    if (deploying != null) {
      deploying.pointActive(active.stateMachineVersionArn());
    }
    announce(
        GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED,
        active.graph(),
        active.graph().getVersion(),
        observedEpoch,
        "activated",
        active.stateMachineVersionArn());
    return active;
  }

  /**
   * Records the state machine version the graph version was compiled and published as (the
   * compile-and-publish step calls this before activation, so pinned executions have an ARN).
   */
  public StoredGraph recordStateMachineVersion(
      String graphId, long version, String stateMachineVersionArn) {
    requireRef(graphId, "-", version);
    return store.recordStateMachineVersion(graphId, version, stateMachineVersionArn);
  }

  /**
   * Stops new admissions; the version stays stored so pinned documents drain on it. The state
   * machine's {@code active} alias is left on the deactivated version (decision 0811): admission
   * only reaches the alias through a datasource subscription, and deactivation removes those.
   */
  public Deactivation deactivate(String graphId, String clusterId) {
    requireRef(graphId, clusterId, 1);
    Deactivation done = store.deactivate(graphId, clusterId);
    announce(
        GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED,
        PipelineGraph.newBuilder().setGraphId(graphId).setClusterId(clusterId).build(),
        done.deactivatedVersion(),
        done.epoch(),
        "deactivated",
        "");
    return done;
  }

  /** Deletes a version that is neither active nor pinned; there is no force flag. */
  public void delete(String graphId, String clusterId, long version) {
    requireRef(graphId, clusterId, version);
    long pinned = pins.pinnedDocuments(graphId, version);
    if (pinned > 0) {
      String arn = store.get(graphId, version).map(StoredGraph::stateMachineVersionArn).orElse("");
      throw new GraphAdminException(
          Reason.FAILED_PRECONDITION,
          "graph '"
              + graphId
              + "' version "
              + version
              + (arn.isEmpty() ? "" : " (state machine version " + arn + ")")
              + " has "
              + pinned
              + " running execution(s) pinned to it and cannot be deleted; deactivate it and let"
              + " them drain, then delete");
    }
    store.delete(graphId, clusterId, version);
    announce(
        GraphUpdateType.GRAPH_UPDATE_TYPE_DELETED,
        PipelineGraph.newBuilder().setGraphId(graphId).setClusterId(clusterId).build(),
        version,
        store.deactivationEpoch(graphId),
        "deleted",
        "");
  }

  /** A version, or with {@code version == 0} the active one. */
  public Optional<StoredGraph> get(String graphId, String clusterId, long version) {
    if (graphId == null || graphId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "graph_id must not be blank");
    }
    return store
        .get(graphId, version)
        .filter(
            s ->
                clusterId == null
                    || clusterId.isBlank()
                    || s.graph().getClusterId().equals(clusterId));
  }

  /**
   * The executions still running on a version's state machine version: the documents pinned to
   * it, which a delete refuses to orphan and the console shows beside each version.
   */
  public long pinnedExecutions(String graphId, long version) {
    requireRef(graphId, "-", version);
    return pins.pinnedDocuments(graphId, version);
  }

  /** See {@link GraphStore#lastStateMachineVersion}: survives deleting graph versions. */
  public long lastStateMachineVersion(String graphId) {
    if (graphId == null || graphId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "graph_id must not be blank");
    }
    return store.lastStateMachineVersion(graphId);
  }

  public List<StoredGraph> versions(String graphId) {
    if (graphId == null || graphId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "graph_id must not be blank");
    }
    return store.versions(graphId);
  }

  public List<StoredGraph> graphs(String clusterId) {
    if (clusterId == null || clusterId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "cluster_id must not be blank");
    }
    return store.graphs(clusterId);
  }

  public ValidationResult validate(PipelineGraph graph, ValidationMode mode) {
    try {
      return validator.validate(graph, mode);
    } catch (IllegalArgumentException e) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, e.getMessage(), e);
    }
  }

  /** PRODUCTION graphs are held to PRODUCTION rules; everything else deploys at DESIGN level. */
  static ValidationMode deployMode(PipelineGraph graph) {
    return graph.getMode() == GraphMode.GRAPH_MODE_PRODUCTION
        ? ValidationMode.VALIDATION_MODE_PRODUCTION
        : ValidationMode.VALIDATION_MODE_DESIGN;
  }

  private void requireValid(PipelineGraph graph, ValidationMode mode) {
    ValidationResult result = validator.validate(graph, mode);
    if (!result.getValid()) {
      throw new GraphAdminException(
          Reason.FAILED_PRECONDITION,
          "graph '"
              + graph.getGraphId()
              + "' fails "
              + mode.name().replace("VALIDATION_MODE_", "")
              + " validation: "
              + result.getViolationsList().stream()
                  .map(GraphAdminService::describe)
                  .collect(Collectors.joining("; ")));
    }
  }

  private static String describe(ValidationViolation v) {
    return "[" + v.getRule() + "] " + v.getMessage();
  }

  private static void requireRef(String graphId, String clusterId, long version) {
    if (graphId == null || graphId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "graph_id must not be blank");
    }
    if (clusterId == null || clusterId.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "cluster_id must not be blank");
    }
    if (version <= 0) {
      throw new GraphAdminException(
          Reason.INVALID_ARGUMENT, "version must be positive, was " + version);
    }
  }

  private void announce(
      GraphUpdateType type,
      PipelineGraph graph,
      long version,
      long epoch,
      String what,
      String stateMachineVersionArn) {
    Instant now = clock.instant();
    GraphUpdateEvent.Builder event =
        GraphUpdateEvent.newBuilder()
            .setEventId(UUID.randomUUID().toString())
            .setType(type)
            .setGraphId(graph.getGraphId())
            .setClusterId(graph.getClusterId())
            .setVersion(version)
            .setOccurredAt(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
            .setDeactivationEpoch(epoch)
            .setStateMachineVersionArn(stateMachineVersionArn);
    if (type == GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED
        || type == GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED) {
      event.setGraph(graph);
    }
    try {
      events.publish(event.build());
    } catch (RuntimeException e) {
      throw new GraphAdminException(
          Reason.UNAVAILABLE,
          "graph '"
              + graph.getGraphId()
              + "' version "
              + version
              + " was "
              + what
              + ", but publishing the graph-updates event failed ("
              + e.getMessage()
              + "); engines still converge by reload-on-miss and reconcile, and "
              + "retrying the request re-announces it",
          e);
    }
  }
}
