package dev.protomolt.core.graph;

import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.OptionalLong;

/**
 * The checks and failure messages every {@link GraphStore} adapter shares, so a caller sees the
 * same words whichever store is behind the port.
 */
public final class GraphStoreArguments {

  private GraphStoreArguments() {}

  public static void requireStorable(PipelineGraph graph) {
    if (graph.getGraphId().isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, "graph.graph_id must not be blank");
    }
    if (graph.getClusterId().isBlank()) {
      throw new GraphAdminException(
          Reason.INVALID_ARGUMENT,
          "graph.cluster_id must not be blank (graph '" + graph.getGraphId() + "')");
    }
  }

  /** The version to assign, or ABORTED when the caller's expected version is no longer next. */
  public static long nextVersion(String graphId, long lastVersion, OptionalLong expected) {
    long next = lastVersion + 1;
    if (expected.isEmpty()) {
      return next;
    }
    long wanted = expected.getAsLong();
    if (wanted <= 0) {
      throw new GraphAdminException(
          Reason.INVALID_ARGUMENT,
          "expected_version must be positive, was " + wanted + " (graph '" + graphId + "')");
    }
    if (wanted != next) {
      throw new GraphAdminException(
          Reason.ABORTED,
          "graph '"
              + graphId
              + "': expected_version "
              + wanted
              + " is not the next version ("
              + next
              + "); another writer published first. "
              + "Re-read the graph, rebase your change and publish as version "
              + next
              + ".");
    }
    return wanted;
  }

  public static GraphAdminException clusterMismatch(
      String graphId, String existing, String requested) {
    return new GraphAdminException(
        Reason.INVALID_ARGUMENT,
        "graph '"
            + graphId
            + "' belongs to cluster '"
            + existing
            + "'; a version for cluster '"
            + requested
            + "' cannot be added to it");
  }

  public static GraphAdminException notFound(String graphId, String clusterId, long version) {
    return new GraphAdminException(
        Reason.NOT_FOUND,
        "graph '"
            + graphId
            + "'"
            + (version > 0 ? " version " + version : "")
            + " does not exist in cluster '"
            + clusterId
            + "'");
  }

  public static GraphAdminException stale(
      String graphId, long version, long observed, long current) {
    return new GraphAdminException(
        Reason.FAILED_PRECONDITION,
        "refusing to activate graph '"
            + graphId
            + "' version "
            + version
            + ": it was read at deactivation epoch "
            + observed
            + " but the graph was deactivated since (epoch "
            + current
            + "). Re-read and activate again.");
  }

  /** The ARN to record, or a refusal when it is blank or a different one is already recorded. */
  public static String requireArn(String graphId, long version, String existing, String arn) {
    if (arn == null || arn.isBlank()) {
      throw new GraphAdminException(
          Reason.INVALID_ARGUMENT,
          "state_machine_version_arn must not be blank "
              + "(graph '"
              + graphId
              + "' version "
              + version
              + ")");
    }
    if (!existing.isEmpty() && !existing.equals(arn)) {
      throw new GraphAdminException(
          Reason.FAILED_PRECONDITION,
          "graph '"
              + graphId
              + "' version "
              + version
              + " already runs on "
              + existing
              + "; it cannot be rebound to "
              + arn
              + " (create a new version instead)");
    }
    return arn;
  }

  /**
   * The version number of a state machine version ARN ({@code ...:stateMachine:<name>:<n>}), or 0
   * when the ARN does not end in one (a recorded ARN the engine did not publish).
   */
  public static long stateMachineVersionNumber(String arn) {
    int colon = arn.lastIndexOf(':');
    String tail = colon < 0 ? "" : arn.substring(colon + 1);
    if (tail.isEmpty() || !tail.chars().allMatch(Character::isDigit) || tail.length() > 18) {
      return 0;
    }
    return Long.parseLong(tail);
  }

  public static GraphAdminException deleteActive(String graphId, long version) {
    return new GraphAdminException(
        Reason.FAILED_PRECONDITION,
        "graph '"
            + graphId
            + "' version "
            + version
            + " is active and cannot be deleted; deactivate it (or activate another version) "
            + "first and let pinned documents drain");
  }
}
