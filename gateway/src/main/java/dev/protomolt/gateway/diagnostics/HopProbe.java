package dev.protomolt.gateway.diagnostics;

import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.MappingPhase;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.core.routing.Destination;
import dev.protomolt.core.routing.EdgeRouter;
import dev.protomolt.core.routing.FieldMappings;
import dev.protomolt.core.routing.FilterOutcome;
import dev.protomolt.core.routing.NodeFilter;
import dev.protomolt.core.routing.RoutingDecision;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.engine.v1.ProbeHopRequest;
import dev.protomolt.proto.engine.v1.ProbeResult;
import java.util.Objects;
import java.util.UUID;

/**
 * Dry-runs a synthetic document through one live node with the engine's own pure logic: the stored
 * graph version loaded as the hop functions load it ({@link GraphTopology}, every expression
 * compiled), the node's filter ({@link NodeFilter}), its pre-mappings ({@link FieldMappings}) and
 * its outgoing edges ({@link EdgeRouter}). The module is not called and nothing is started, staged
 * or recorded: each step reports the decision the hop would take.
 */
public final class HopProbe {

  private final GraphStore graphs;
  private final PipelineCelEnvironment cel;

  public HopProbe(GraphStore graphs, PipelineCelEnvironment cel) {
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.cel = Objects.requireNonNull(cel, "cel");
  }

  public ProbeResult probe(ProbeHopRequest request) {
    ProbeRun run = new ProbeRun("hop");
    if (request.getGraphId().isBlank()) {
      return run.fail("graph_id: required").result();
    }
    if (request.getNodeId().isBlank()) {
      return run.fail("node_id: required").result();
    }
    if (request.getVersion() < 0) {
      return run.fail(
              "version: must be 0 (the active one) or a stored version, got "
                  + request.getVersion())
          .result();
    }
    GraphTopology[] topology = new GraphTopology[1];
    GraphNode[] node = new GraphNode[1];
    run.step(
        "admission",
        "ledger (graph versions)",
        () -> {
          StoredGraph stored =
              graphs
                  .get(request.getGraphId(), request.getVersion())
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              request.getVersion() == 0
                                  ? "graph_id: graph '"
                                      + request.getGraphId()
                                      + "' has no active version"
                                  : "version: graph '"
                                      + request.getGraphId()
                                      + "' has no version "
                                      + request.getVersion()));
          if (!request.getClusterId().isBlank()
              && !request.getClusterId().equals(stored.graph().getClusterId())) {
            throw new IllegalArgumentException(
                "cluster_id: graph '"
                    + request.getGraphId()
                    + "' belongs to cluster '"
                    + stored.graph().getClusterId()
                    + "'");
          }
          topology[0] = GraphTopology.load(stored.graph(), cel);
          node[0] =
              topology[0]
                  .node(request.getNodeId())
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "node_id: graph '"
                                  + request.getGraphId()
                                  + "' version "
                                  + stored.graph().getVersion()
                                  + " has no node '"
                                  + request.getNodeId()
                                  + "'"));
          return "version "
              + stored.graph().getVersion()
              + (stored.active() ? " (active)" : " (inactive)")
              + ", node '"
              + request.getNodeId()
              + "' loaded with its expressions compiled";
        });
    if (run.failed()) {
      return run.result();
    }
    String id = "diagnostics-" + UUID.randomUUID();
    PipeDoc[] document = {
      PipeDoc.newBuilder()
          .setDocId(id)
          .setSearchMetadata(
              SearchMetadata.newBuilder()
                  .setTitle("diagnostics probe")
                  .setBody("diagnostics probe"))
          .build()
    };
    PipeStream stream =
        PipeStream.newBuilder()
            .setStreamId(id)
            .setClusterId(topology[0].clusterId())
            .setCurrentNodeId(request.getNodeId())
            .setMetadata(StreamMetadata.newBuilder().setAccountId("diagnostics"))
            .setDocument(document[0])
            .build();
    String engine = "graph '" + request.getGraphId() + "' node '" + request.getNodeId() + "'";
    boolean[] runs = {true};
    run.step(
            "hydration",
            engine,
            () ->
                "the synthetic document rides inline ("
                    + stream.getSerializedSize()
                    + " bytes); nothing is read from the store")
        .step(
            "filter",
            engine,
            () ->
                switch (NodeFilter.evaluate(
                    topology[0], node[0], new CelInput(document[0], stream))) {
                  case FilterOutcome.Run r -> "RUN: every filter condition holds";
                  case FilterOutcome.Skip s -> {
                    runs[0] = false;
                    yield "SKIP: condition #" + s.conditionIndex() + " (" + s.description() + ")";
                  }
                  case FilterOutcome.Drop d -> {
                    runs[0] = false;
                    yield "DROP: condition #" + d.conditionIndex() + " (" + d.description() + ")";
                  }
                })
        .step(
            "mappings",
            engine,
            () -> {
              if (!runs[0]) {
                return "not applied: the filter did not let the module run";
              }
              PipeDoc mapped =
                  FieldMappings.apply(topology[0], node[0], MappingPhase.PRE, document[0], stream);
              boolean changed = !mapped.equals(document[0]);
              document[0] = mapped;
              return node[0].getPreMappingsCount()
                  + " pre-mapping(s) applied, document "
                  + (changed ? "changed" : "unchanged");
            })
        .step(
            "routing",
            engine,
            () ->
                switch (EdgeRouter.route(
                    topology[0], request.getNodeId(), new CelInput(document[0], stream))) {
                  case RoutingDecision.Routed r ->
                      "routed to " + r.destinations().stream().map(HopProbe::describe).toList();
                  case RoutingDecision.Terminal t ->
                      t.blockedByMaxHops().isEmpty()
                          ? "terminal: no edge taken"
                          : "terminal: edges " + t.blockedByMaxHops() + " stopped by max hops";
                  case RoutingDecision.Failed f ->
                      throw new IllegalStateException(
                          "edge '" + f.edgeId() + "' failed to evaluate: " + f.reason());
                });
    return run.result();
  }

  private static String describe(Destination d) {
    return d.toNodeId() + " (" + d.behavior() + ")";
  }
}
