package dev.protomolt.gateway.diagnostics;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.proto.engine.v1.ProbeResult;
import java.util.Objects;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Checks that a graph's active version is deployed as admission expects: the ledger records a
 * state machine version for it, the machine's {@code active} alias routes all traffic to exactly
 * that version, and Step Functions still holds the version. Only reads.
 */
public final class StateMachineProbe {

  private final GraphStore graphs;
  private final SfnClient sfn;

  public StateMachineProbe(GraphStore graphs, SfnClient sfn) {
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.sfn = Objects.requireNonNull(sfn, "sfn");
  }

  public ProbeResult probe(String graphId, String clusterId) {
    ProbeRun run = new ProbeRun("state-machine");
    if (graphId == null || graphId.isBlank()) {
      return run.fail("graph_id: required").result();
    }
    String[] versionArn = new String[1];
    run.step(
        "read active version",
        "ledger (graph versions)",
        () -> {
          StoredGraph active =
              graphs
                  .get(graphId, 0)
                  .filter(StoredGraph::active)
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "graph_id: graph '" + graphId + "' has no active version"));
          if (clusterId != null
              && !clusterId.isBlank()
              && !clusterId.equals(active.graph().getClusterId())) {
            throw new IllegalArgumentException(
                "cluster_id: graph '"
                    + graphId
                    + "' belongs to cluster '"
                    + active.graph().getClusterId()
                    + "', not '"
                    + clusterId
                    + "'");
          }
          if (active.stateMachineVersionArn().isEmpty()) {
            throw new IllegalStateException(
                "active version "
                    + active.graph().getVersion()
                    + " records no state machine version (never deployed)");
          }
          versionArn[0] = active.stateMachineVersionArn();
          return "version " + active.graph().getVersion() + " is " + versionArn[0];
        });
    if (run.failed()) {
      return run.result();
    }
    String machine = versionArn[0].substring(0, versionArn[0].lastIndexOf(':'));
    String alias = machine + ":" + StateMachineNames.ACTIVE_ALIAS;
    run.step(
            "describe alias",
            "Step Functions alias " + alias,
            () -> {
              var routes =
                  sfn.describeStateMachineAlias(b -> b.stateMachineAliasArn(alias))
                      .routingConfiguration();
              if (routes.size() != 1
                  || !routes.getFirst().stateMachineVersionArn().equals(versionArn[0])) {
                throw new IllegalStateException(
                    "the alias routes to "
                        + routes.stream()
                            .map(r -> r.stateMachineVersionArn() + " " + r.weight() + "%")
                            .toList()
                        + ", not only to the recorded "
                        + versionArn[0]);
              }
              return "routes 100% to " + versionArn[0];
            })
        .step(
            "describe version",
            "Step Functions version " + versionArn[0],
            () -> {
              var version = sfn.describeStateMachine(b -> b.stateMachineArn(versionArn[0]));
              return "status " + version.statusAsString() + ", revision " + version.revisionId();
            });
    return run.result();
  }
}
