package dev.protomolt.engine.activation;

import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.core.orchestration.TopicProvisioning;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.statemachines.CompiledStateMachine;
import dev.protomolt.statemachines.DeadLetterTopics;
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
 * <p>Before the alias moves, the version's dead-letter topics are created (decision 0651): MSK
 * Serverless creates no topic on first write, so a dead letter to a topic nobody made would be lost.
 *
 * <p>Every step is safe to repeat; a call that failed half way is finished by calling it again.
 */
public final class GraphActivationService implements GraphAdminService.Deployment {

  private final GraphAdminService admin;
  private final StateMachines machines;
  private final EngineFunctions functions;
  private final TopicProvisioning topics;

  /**
   * Activation on a broker that creates topics on first write (the local broker with automatic
   * topic creation on): nothing is created ahead. AWS wiring uses the four-argument constructor.
   */
  public GraphActivationService(
      GraphAdminService admin, StateMachines machines, EngineFunctions functions) {
    this(admin, machines, functions, topics -> {});
  }

  /**
   * @param topics creates the version's dead-letter topics before the alias moves
   */
  public GraphActivationService(
      GraphAdminService admin,
      StateMachines machines,
      EngineFunctions functions,
      TopicProvisioning topics) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.functions = Objects.requireNonNull(functions, "functions");
    this.topics = Objects.requireNonNull(topics, "topics");
    // From now on every activation through the admin service (its gRPC door included) deploys.
    admin.deployThrough(this);
  }

  /** What an activation left behind. */
  public record Activation(String graphId, long version, String machineArn, String versionArn) {}

  /**
   * Deploys the version if needed, makes it the active one and points the alias at it; the same as
   * {@link GraphAdminService#activate}, which goes through this service once it is attached.
   */
  public Activation activate(String graphId, String clusterId, long version) {
    StoredGraph active = admin.activate(graphId, clusterId, version);
    String versionArn = active.stateMachineVersionArn();
    return new Activation(graphId, version, machineOf(versionArn), versionArn);
  }

  @Override
  public String deploy(PipelineGraph graph) {
    // Also on a rollback to a version deployed long ago: its topics may have been deleted since.
    try {
      topics.ensureExist(DeadLetterTopics.of(graph));
    } catch (IllegalStateException e) {
      throw new GraphAdminException(
          Reason.UNAVAILABLE,
          "graph '"
              + graph.getGraphId()
              + "' version "
              + graph.getVersion()
              + " was not activated: its dead-letter topics could not be created: "
              + e.getMessage(),
          e);
    }
    String recorded =
        admin
            .get(graph.getGraphId(), graph.getClusterId(), graph.getVersion())
            .filter(s -> s.graph().getVersion() == graph.getVersion())
            .map(StoredGraph::stateMachineVersionArn)
            .orElseThrow(
                () ->
                    new GraphAdminException(
                        Reason.NOT_FOUND,
                        "graph '"
                            + graph.getGraphId()
                            + "' version "
                            + graph.getVersion()
                            + " does not exist in cluster '"
                            + graph.getClusterId()
                            + "'"));
    return recorded.isEmpty()
        ? deploy(graph, StateMachineNames.machineName(functions.environment(), graph.getGraphId()))
        : recorded;
  }

  @Override
  public void pointActive(String versionArn) {
    machines.pointAlias(machineOf(versionArn), StateMachineNames.ACTIVE_ALIAS, versionArn);
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
      throw new GraphAdminException(
          Reason.FAILED_PRECONDITION,
          "graph '"
              + graph.getGraphId()
              + "' version "
              + graph.getVersion()
              + " does not compile to a state machine: "
              + e.getMessage(),
          e);
    }
    // A fresh machine is created with a throwaway placeholder: its definition must name its own
    // published version ARN, which is only known once the machine exists.
    String machineArn =
        machines
            .machineArn(machineName)
            .orElseGet(
                () ->
                    machines.create(
                        machineName,
                        compiled.deployableDefinition(
                            functions.substitutions(
                                "arn:aws:states:us-east-1:000000000000:stateMachine:"
                                    + machineName
                                    + ":1"))));
    String expected = machineArn + ":" + nextVersionNumber(graph.getGraphId(), machineArn);
    String published =
        machines.updateAndPublish(
            machineArn,
            compiled.deployableDefinition(functions.substitutions(expected)),
            "graph " + graph.getGraphId() + " version " + graph.getVersion());
    if (!published.equals(expected)) {
      // The definition starts fan-out children on `expected`; running it under another ARN would
      // pin children to the wrong version. Someone published on this machine outside the engine.
      throw new GraphAdminException(
          Reason.FAILED_PRECONDITION,
          "published "
              + published
              + " but its definition names "
              + expected
              + " for fan-out children; state machine "
              + machineArn
              + " has versions the graph store does not know of, so graph '"
              + graph.getGraphId()
              + "' version "
              + graph.getVersion()
              + " was not recorded");
    }
    admin.recordStateMachineVersion(graph.getGraphId(), graph.getVersion(), published);
    return published;
  }

  /**
   * The next state machine version number: one past the highest ever recorded for the graph,
   * deleted graph versions included. Step Functions numbers versions 1, 2, ... per machine and
   * never reuses one, and only this service publishes on a graph's machine, so the store knows
   * every number already taken (decisions 0800, 0811).
   */
  private long nextVersionNumber(String graphId, String machineArn) {
    long highest = admin.lastStateMachineVersion(graphId);
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
