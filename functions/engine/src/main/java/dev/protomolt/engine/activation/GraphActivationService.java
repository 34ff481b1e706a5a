package dev.protomolt.engine.activation;

import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.statemachines.CompiledStateMachine;
import dev.protomolt.statemachines.GraphCompileException;
import dev.protomolt.statemachines.StateMachineCompiler;
import java.util.Objects;

/**
 * Activation on Step Functions. Activating a graph version makes sure the version is deployed
 * (compiled, written to the graph's state machine and published as a state machine version whose
 * ARN is recorded beside the graph version), flips the graph store's active version and then moves
 * the graph's {@code active} alias onto it. Admission resolves that alias, so the alias moves
 * last: until then new documents keep going to the previous version. Rollback is activating an
 * older version: it is already published, so only the store and the alias move.
 *
 * <p>Every step is safe to repeat; a call that failed half way is finished by calling it again.
 */
public final class GraphActivationService {

  private final GraphAdminService admin;
  private final StateMachines machines;
  private final EngineFunctions functions;

  public GraphActivationService(GraphAdminService admin, StateMachines machines, EngineFunctions functions) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.functions = Objects.requireNonNull(functions, "functions");
  }

  /** What an activation left behind. */
  public record Activation(String graphId, long version, String machineArn, String versionArn) {}

  /** Deploys the version if needed, makes it the active one and points the alias at it. */
  public Activation activate(String graphId, String clusterId, long version) {
    StoredGraph stored = admin.get(graphId, clusterId, version)
        .filter(s -> s.graph().getVersion() == version)
        .orElseThrow(() -> new GraphAdminException(Reason.NOT_FOUND, "graph '" + graphId + "' version "
            + version + " does not exist in cluster '" + clusterId + "'"));
    String machineName = StateMachineNames.machineName(functions.environment(), graphId);
    String versionArn = stored.stateMachineVersionArn().isEmpty()
        ? deploy(stored.graph(), machineName)
        : stored.stateMachineVersionArn();
    admin.activate(graphId, clusterId, version);
    String machineArn = machineOf(versionArn);
    machines.pointAlias(machineArn, StateMachineNames.ACTIVE_ALIAS, versionArn);
    return new Activation(graphId, version, machineArn, versionArn);
  }

  /**
   * Compiles and publishes one graph version and records its version ARN. Exposed for callers that
   * deploy ahead of activation (a staged rollout); activation calls it when the version has none.
   */
  public String deploy(PipelineGraph graph, String machineName) {
    CompiledStateMachine compiled;
    try {
      compiled = StateMachineCompiler.compile(graph);
    } catch (GraphCompileException e) {
      throw new GraphAdminException(Reason.FAILED_PRECONDITION, "graph '" + graph.getGraphId() + "' version "
          + graph.getVersion() + " does not compile to a state machine: " + e.getMessage(), e);
    }
    // A fresh machine is created with a throwaway placeholder: its definition must name its own
    // published version ARN, which is only known once the machine exists.
    String machineArn = machines.machineArn(machineName).orElseGet(() -> machines.create(machineName,
        compiled.deployableDefinition(functions.substitutions(
            "arn:aws:states:us-east-1:000000000000:stateMachine:" + machineName + ":1"))));
    String expected = machineArn + ":" + nextVersionNumber(graph.getGraphId(), machineArn);
    String published = machines.updateAndPublish(machineArn,
        compiled.deployableDefinition(functions.substitutions(expected)),
        "graph " + graph.getGraphId() + " version " + graph.getVersion());
    if (!published.equals(expected)) {
      // The definition starts fan-out children on `expected`; running it under another ARN would
      // pin children to the wrong version. Someone published on this machine outside the engine.
      throw new GraphAdminException(Reason.FAILED_PRECONDITION, "published " + published
          + " but its definition names " + expected + " for fan-out children; state machine "
          + machineArn + " has versions the graph store does not know of, so graph '"
          + graph.getGraphId() + "' version " + graph.getVersion() + " was not recorded");
    }
    admin.recordStateMachineVersion(graph.getGraphId(), graph.getVersion(), published);
    return published;
  }

  /**
   * The next state machine version number: one past the highest recorded for the graph. Step
   * Functions numbers versions 1, 2, ... per machine and never reuses one, and only this service
   * publishes on a graph's machine, so the store knows every number already taken.
   */
  private long nextVersionNumber(String graphId, String machineArn) {
    long highest = 0;
    for (StoredGraph s : admin.versions(graphId)) {
      String arn = s.stateMachineVersionArn();
      if (arn.startsWith(machineArn + ":")) {
        highest = Math.max(highest, Long.parseLong(arn.substring(machineArn.length() + 1)));
      }
    }
    return highest + 1;
  }

  static String machineOf(String versionArn) {
    int colon = versionArn.lastIndexOf(':');
    if (colon < 0 || !versionArn.contains(":stateMachine:")) {
      throw new IllegalArgumentException("not a state machine version ARN: '" + versionArn + "'");
    }
    return versionArn.substring(0, colon);
  }
}
