package dev.protomolt.cli;

import dev.protomolt.proto.config.v1.GraphMode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.proto.config.v1.ValidationViolation;
import dev.protomolt.proto.engine.v1.CreateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphResponse;
import dev.protomolt.proto.engine.v1.GetGraphRequest;
import dev.protomolt.proto.engine.v1.GraphVersionRef;
import dev.protomolt.proto.engine.v1.GraphVersionResponse;
import dev.protomolt.proto.engine.v1.GraphVersionSummary;
import dev.protomolt.proto.engine.v1.ListGraphVersionsRequest;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc.PipelineGraphServiceBlockingStub;
import dev.protomolt.proto.engine.v1.ValidateGraphRequest;
import dev.protomolt.statemachines.GraphCompileException;
import dev.protomolt.statemachines.StateMachineCompiler;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt graph ...}: graph lifecycle against a running {@code up}, through the engine's
 * {@code PipelineGraphService} door on the gateway port.
 */
@Command(
    name = "graph",
    mixinStandardHelpOptions = true,
    description =
        "Apply, validate, inspect and (de)activate pipeline graphs on a running platform.",
    subcommands = {
      GraphCommand.Apply.class,
      GraphCommand.Validate.class,
      GraphCommand.ListGraphs.class,
      GraphCommand.Show.class,
      GraphCommand.Asl.class,
      GraphCommand.Activate.class,
      GraphCommand.Deactivate.class,
      GraphCommand.Delete.class
    })
final class GraphCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Options every graph subcommand shares, and the call plumbing. */
  abstract static class GraphCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin GatewayOption gateway;

    @Option(
        names = "--cluster",
        defaultValue = LocalPlatform.CLUSTER,
        description = "The cluster the graph runs on (default: ${DEFAULT-VALUE}).")
    String cluster;

    @Override
    public final Integer call() {
      ManagedChannel channel = gateway.open();
      try {
        return run(PipelineGraphServiceGrpc.newBlockingStub(channel), spec.commandLine().getOut());
      } finally {
        channel.shutdownNow();
      }
    }

    abstract int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out);

    /** A stub whose calls give up after 60 s: activation compiles and publishes, never longer. */
    static PipelineGraphServiceBlockingStub timed(PipelineGraphServiceBlockingStub graphs) {
      return graphs.withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    GraphVersionResponse get(
        PipelineGraphServiceBlockingStub graphs, String graphId, long version) {
      return gateway.call(
          "graph '" + graphId + "'" + (version == 0 ? "" : " version " + version),
          () ->
              timed(graphs)
                  .getGraph(
                      GetGraphRequest.newBuilder()
                          .setGraphId(graphId)
                          .setClusterId(cluster)
                          .setVersion(version)
                          .build()));
    }
  }

  /** Prints every violation with its rule and field; returns whether the graph is valid. */
  static boolean report(ValidationResult result, PrintWriter out) {
    for (ValidationViolation v : result.getViolationsList()) {
      StringBuilder where = new StringBuilder();
      if (!v.getField().isEmpty()) {
        where.append(" field=").append(v.getField());
      }
      if (!v.getNodeId().isEmpty()) {
        where.append(" node=").append(v.getNodeId());
      }
      if (!v.getEdgeId().isEmpty()) {
        where.append(" edge=").append(v.getEdgeId());
      }
      out.printf(
          "%s rule=%s%s: %s%n",
          v.getSeverity().name().replace("SEVERITY_", ""), v.getRule(), where, v.getMessage());
    }
    return result.getValid();
  }

  /** The validation level the platform applies when the graph is applied (its deploy mode). */
  static ValidationMode deployMode(PipelineGraph graph) {
    return graph.getMode() == GraphMode.GRAPH_MODE_PRODUCTION
        ? ValidationMode.VALIDATION_MODE_PRODUCTION
        : ValidationMode.VALIDATION_MODE_DESIGN;
  }

  @Command(
      name = "apply",
      mixinStandardHelpOptions = true,
      description = "Validate FILE, store it as the graph's next version and activate it.")
  static final class Apply extends GraphCall {

    @Parameters(paramLabel = "FILE", description = "A PipelineGraph in protobuf JSON (or YAML).")
    Path file;

    @Option(names = "--inactive", description = "Store the new version without activating it.")
    boolean inactive;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      PipelineGraph graph = GraphFile.read(file);
      ValidationResult result =
          gateway.call(
              "validating " + file,
              () ->
                  timed(graphs)
                      .validateGraph(
                          ValidateGraphRequest.newBuilder()
                              .setGraph(graph)
                              .setMode(deployMode(graph))
                              .build()));
      if (!report(result, out)) {
        out.println(
            "graph '"
                + graph.getGraphId()
                + "' in "
                + file
                + " is invalid: nothing applied;"
                + " fix the violations above and apply again");
        out.flush();
        return CommandFailure.REFUSED;
      }
      CreateGraphRequest request =
          CreateGraphRequest.newBuilder().setGraph(graph).setCreatedBy("protomolt-cli").build();
      GraphVersionResponse stored =
          gateway.call(
              "applying " + file,
              () ->
                  inactive
                      ? timed(graphs).createGraph(request)
                      : timed(graphs).createAndActivateGraph(request));
      out.printf(
          "graph '%s' version %d stored%s%n",
          stored.getGraph().getGraphId(),
          stored.getGraph().getVersion(),
          stored.getActive()
              ? " and active (" + stored.getStateMachineVersionArn() + ")"
              : ", not active");
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description = "Check FILE against the platform's rules; print every violation.")
  static final class Validate extends GraphCall {

    @Parameters(paramLabel = "FILE", description = "A PipelineGraph in protobuf JSON (or YAML).")
    Path file;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        description = "DRAFT, DESIGN or PRODUCTION (default: the graph's own deploy mode).")
    ValidationMode mode;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      PipelineGraph graph = GraphFile.read(file);
      ValidationMode level = mode == null ? deployMode(graph) : mode;
      ValidationResult result =
          gateway.call(
              "validating " + file,
              () ->
                  timed(graphs)
                      .validateGraph(
                          ValidateGraphRequest.newBuilder()
                              .setGraph(graph)
                              .setMode(level)
                              .build()));
      boolean valid = report(result, out);
      out.printf(
          "graph '%s': %s at %s level (%d violation%s)%n",
          graph.getGraphId(),
          valid ? "valid" : "invalid",
          level.name().replace("VALIDATION_MODE_", ""),
          result.getViolationsCount(),
          result.getViolationsCount() == 1 ? "" : "s");
      out.flush();
      return valid ? 0 : CommandFailure.REFUSED;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the cluster's graphs, or every version of one graph.")
  static final class ListGraphs extends GraphCall {

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "ID",
        description = "List this graph's versions.")
    String graphId;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      List<GraphVersionSummary> rows =
          graphId == null
              ? gateway
                  .call(
                      "listing graphs",
                      () ->
                          timed(graphs)
                              .listGraphs(
                                  ListGraphsRequest.newBuilder().setClusterId(cluster).build()))
                  .getGraphsList()
              : gateway
                  .call(
                      "graph '" + graphId + "'",
                      () ->
                          timed(graphs)
                              .listGraphVersions(
                                  ListGraphVersionsRequest.newBuilder()
                                      .setGraphId(graphId)
                                      .setClusterId(cluster)
                                      .build()))
                  .getVersionsList();
      if (rows.isEmpty()) {
        out.println(
            graphId == null
                ? "no graphs in cluster '"
                    + cluster
                    + "' — apply one with"
                    + " `protomolt graph apply FILE`"
                : "graph '" + graphId + "' has no versions");
        out.flush();
        return graphId == null ? 0 : CommandFailure.REFUSED;
      }
      out.printf(
          "%-24s %7s  %-6s %5s %5s  %s%n", "GRAPH", "VERSION", "ACTIVE", "NODES", "EDGES", "NAME");
      for (GraphVersionSummary s : rows) {
        out.printf(
            "%-24s %7d  %-6s %5d %5d  %s%n",
            s.getGraphId(),
            s.getVersion(),
            s.getActive() ? "yes" : "no",
            s.getNodeCount(),
            s.getEdgeCount(),
            s.getName());
      }
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print a graph version as protobuf JSON (the active one by default).")
  static final class Show extends GraphCall {

    @Parameters(paramLabel = "ID")
    String graphId;

    @Option(
        names = "--version",
        paramLabel = "N",
        defaultValue = "0",
        description = "The version (default: the active one).")
    long version;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      GraphVersionResponse stored = get(graphs, graphId, version);
      out.println(GraphFile.json(stored.getGraph()));
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "asl",
      mixinStandardHelpOptions = true,
      description =
          "Print the Amazon States Language of a graph version: the definition deployed"
              + " on Step Functions, or the compiled template if the version was never activated.")
  static final class Asl extends GraphCall {

    @Parameters(paramLabel = "ID")
    String graphId;

    @Option(
        names = "--version",
        paramLabel = "N",
        defaultValue = "0",
        description = "The version (default: the active one).")
    long version;

    @Mixin DataOption data;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      GraphVersionResponse stored = get(graphs, graphId, version);
      long number = stored.getGraph().getVersion();
      String versionArn = stored.getStateMachineVersionArn();
      if (!versionArn.isEmpty()) {
        // What actually runs: the published version's definition, placeholders substituted
        // (decision 0981).
        out.println(DeployedDefinition.read(data.settings(), versionArn));
        out.flush();
        return 0;
      }
      String template;
      try {
        template = StateMachineCompiler.compile(stored.getGraph()).definition();
      } catch (GraphCompileException e) {
        throw CommandFailure.refused(
            "graph '" + graphId + "' version " + number + " does not compile: " + e.getMessage());
      }
      // The note goes to stderr so that stdout stays one JSON document either way.
      PrintWriter err = spec.commandLine().getErr();
      err.printf(
          "graph '%s' version %d was never activated, so no state machine version holds it:"
              + " this is the compiled template, with ${PrepareFunctionArn} and the like where"
              + " deployment substitutes the function and state machine ARNs%n",
          graphId, number);
      err.flush();
      out.println(template);
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "activate",
      mixinStandardHelpOptions = true,
      description = "Make a stored version the active one (deploying it if needed); also rollback.")
  static final class Activate extends GraphCall {

    @Parameters(paramLabel = "ID")
    String graphId;

    @Option(names = "--version", paramLabel = "N", required = true)
    long version;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      GraphVersionResponse active =
          gateway.call(
              "activating graph '" + graphId + "' version " + version,
              () ->
                  timed(graphs)
                      .activateGraph(
                          GraphVersionRef.newBuilder()
                              .setGraphId(graphId)
                              .setClusterId(cluster)
                              .setVersion(version)
                              .build()));
      out.printf(
          "graph '%s' version %d is active (%s)%n",
          graphId, active.getGraph().getVersion(), active.getStateMachineVersionArn());
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "deactivate",
      mixinStandardHelpOptions = true,
      description = "Stop admitting new documents to a graph; running ones finish.")
  static final class Deactivate extends GraphCall {

    @Parameters(paramLabel = "ID")
    String graphId;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      DeactivateGraphResponse done =
          gateway.call(
              "deactivating graph '" + graphId + "'",
              () ->
                  timed(graphs)
                      .deactivateGraph(
                          DeactivateGraphRequest.newBuilder()
                              .setGraphId(graphId)
                              .setClusterId(cluster)
                              .build()));
      out.printf(
          "graph '%s' deactivated (was version %d)%n", graphId, done.getDeactivatedVersion());
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = "Delete one inactive graph version.")
  static final class Delete extends GraphCall {

    @Parameters(paramLabel = "ID")
    String graphId;

    @Option(names = "--version", paramLabel = "N", required = true)
    long version;

    @Override
    int run(PipelineGraphServiceBlockingStub graphs, PrintWriter out) {
      gateway.call(
          "deleting graph '" + graphId + "' version " + version,
          () ->
              timed(graphs)
                  .deleteGraphVersion(
                      GraphVersionRef.newBuilder()
                          .setGraphId(graphId)
                          .setClusterId(cluster)
                          .setVersion(version)
                          .build()));
      out.printf("graph '%s' version %d deleted%n", graphId, version);
      out.flush();
      return 0;
    }
  }
}
