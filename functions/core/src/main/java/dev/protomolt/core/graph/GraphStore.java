package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The system of record for graph versions: full immutable snapshots, one active version per
 * graph and cluster, a monotonic deactivation epoch per graph, and the datasource subscriptions
 * derived from the active version. Port: the Postgres adapter lives in functions/engine; an
 * in-memory one backs tests. Failures are {@link GraphAdminException}s carrying the reason a
 * caller maps to a status.
 */
public interface GraphStore {

  /**
   * Stores a new inactive version. With {@code expectedVersion} empty the next version is
   * assigned; otherwise it must be exactly the next one, and a caller that lost the race to
   * another writer fails with {@link GraphAdminException.Reason#ABORTED}. Version numbers are
   * never reused, not even after a delete, so a pin to a deleted version stays orphaned.
   */
  StoredGraph create(
      PipelineGraph graph, OptionalLong expectedVersion, String createdBy, Instant now);

  /**
   * Makes {@code version} the active one (also the rollback) and re-derives the datasource
   * subscriptions from its intake nodes. Refused with FAILED_PRECONDITION when the graph was
   * deactivated after the caller read {@code observedEpoch}.
   */
  StoredGraph activate(String graphId, String clusterId, long version, long observedEpoch);

  /** Clears the active version and its subscriptions and bumps the epoch. */
  Deactivation deactivate(String graphId, String clusterId);

  /**
   * Records the Step Functions state machine version a graph version was compiled and published
   * as. Set once: a different ARN for the same version is refused with FAILED_PRECONDITION, since
   * documents already pinned to the first one must keep running on it.
   */
  StoredGraph recordStateMachineVersion(
      String graphId, long version, String stateMachineVersionArn);

  /**
   * The highest state machine version number ever recorded for the graph (the number after the
   * last {@code :} of a recorded version ARN), deleted graph versions included; 0 when none was.
   * Step Functions never reuses a version number, so the next publish is always one past this.
   */
  long lastStateMachineVersion(String graphId);

  /** Deletes an inactive version; refuses an active one with FAILED_PRECONDITION. */
  void delete(String graphId, String clusterId, long version);

  /** A version, or with {@code version == 0} the active one. */
  Optional<StoredGraph> get(String graphId, long version);

  /** Every stored version of a graph, oldest first. */
  List<StoredGraph> versions(String graphId);

  /** One row per graph of the cluster: its active version, or its newest when none is active. */
  List<StoredGraph> graphs(String clusterId);

  /** 0 until the graph is first deactivated; never decreases, survives deletes. */
  long deactivationEpoch(String graphId);

  /** Subscriptions of active versions fed by a datasource; throws on failure, never returns a guess. */
  List<DatasourceSubscription> subscriptions(String datasourceId);

  /** A stored version and whether it is the active one. */
  record StoredGraph(PipelineGraph graph, boolean active, String stateMachineVersionArn) {}

  /** What a deactivation did: the version it switched off (0 if none was active) and the new epoch. */
  record Deactivation(long deactivatedVersion, long epoch) {}
}
