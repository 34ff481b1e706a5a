package dev.protomolt.engine.replay;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.engine.admission.AdmissionService;
import java.util.OptionalLong;

/**
 * The graph version a replay runs: the one asked for, or the one the graph's {@code active} alias
 * names when the replay is validated, resolved once so a version activated mid-replay does not
 * split it (decision 0990). Every refusal names the request field it comes from.
 */
final class ReplayTargets {

  private ReplayTargets() {}

  static StoredGraph resolve(
      GraphStore graphs, StateMachines machines, String graphId, OptionalLong version) {
    if (graphId.isBlank()) {
      throw new ReplayRefused("graph_id", "required: the graph whose version the documents run");
    }
    if (version.isPresent()) {
      long v = version.getAsLong();
      if (v <= 0) {
        throw new ReplayRefused("version", "must be a positive graph version, was " + v);
      }
      StoredGraph stored =
          graphs
              .get(graphId, v)
              .orElseThrow(
                  () ->
                      new ReplayRefused("version", "graph '" + graphId + "' has no version " + v));
      if (stored.stateMachineVersionArn().isEmpty()) {
        throw new ReplayRefused(
            "version",
            "version "
                + v
                + " of graph '"
                + graphId
                + "' was never activated, so it has no state machine version to run");
      }
      return stored;
    }
    String anyArn =
        graphs.versions(graphId).stream()
            .map(StoredGraph::stateMachineVersionArn)
            .filter(arn -> !arn.isEmpty())
            .findFirst()
            .orElseThrow(
                () ->
                    new ReplayRefused(
                        "graph_id",
                        "graph '"
                            + graphId
                            + "' has no deployed version; activate one or name a version"));
    String machineArn = anyArn.substring(0, anyArn.lastIndexOf(':'));
    String pinnedArn = machines.aliasTarget(machineArn, StateMachineNames.ACTIVE_ALIAS).orElse("");
    return AdmissionService.storedAt(graphs, graphId, pinnedArn)
        .orElseThrow(
            () ->
                new ReplayRefused(
                    "graph_id",
                    pinnedArn.isEmpty()
                        ? "graph '" + graphId + "' has no 'active' alias; name a version"
                        : "the 'active' alias of graph '"
                            + graphId
                            + "' points at "
                            + pinnedArn
                            + ", which no stored version recorded"));
  }
}
