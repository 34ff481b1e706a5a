package dev.protomolt.core.graph;

/**
 * A caller tried to install an active snapshot it read before a deactivation committed. Refused,
 * so a slow reader can never resurrect a graph that was switched off after it looked.
 */
public final class StaleActivationException extends RuntimeException {

  public StaleActivationException(
      String graphId, long version, long observedEpoch, long currentEpoch) {
    super(
        "refusing to activate graph '"
            + graphId
            + "' version "
            + version
            + ": the snapshot was "
            + "read at deactivation epoch "
            + observedEpoch
            + " but the graph has since been deactivated "
            + "(epoch "
            + currentEpoch
            + "). Re-read the graph and activate again.");
  }
}
