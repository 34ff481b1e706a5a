package dev.protomolt.core.routing;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.processor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.proto.config.v1.GraphSettings;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeRouterTest {

  private static final PipelineCelEnvironment ENV = PipelineCelEnvironment.create();

  /** parse fans out: en (prio 1), big (prio 2), always (prio 3, MEMORY), priority-param (prio 0). */
  private static final PipelineGraph GRAPH =
      PipelineGraph.newBuilder()
          .setGraphId("g")
          .setVersion(1)
          .addNodes(intake("in", "ds"))
          .addNodes(processor("parse", "parser"))
          .addNodes(processor("en", "m"))
          .addNodes(processor("big", "m"))
          .addNodes(processor("all", "m"))
          .addNodes(processor("urgent", "m"))
          .addEdges(edge("in-parse", "in", "parse"))
          .addEdges(edge("to-en", "parse", "en", "document.search_metadata.language == 'en'", 1))
          .addEdges(
              edge("to-big", "parse", "big", "document.search_metadata.content_length > 1000", 2))
          .addEdges(
              edge("to-all", "parse", "all").toBuilder()
                  .setPriority(3)
                  .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY)
                  .build())
          .addEdges(
              edge(
                  "to-urgent",
                  "parse",
                  "urgent",
                  "metadata.context_params['priority'] == 'high'",
                  0))
          .build();

  private static final GraphTopology TOPOLOGY = GraphTopology.load(GRAPH, ENV);

  private static CelInput input(String language, long length, int hops, String priority) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setSearchMetadata(
                SearchMetadata.newBuilder().setLanguage(language).setContentLength(length))
            .build();
    StreamMetadata.Builder md = StreamMetadata.newBuilder().setHopCount(hops);
    if (priority != null) {
      md.putContextParams("priority", priority);
    }
    return new CelInput(doc, PipeStream.newBuilder().setMetadata(md).build());
  }

  @Test
  void matchingEdgesInPriorityOrderWithTheirBehaviour() {
    RoutingDecision decision = EdgeRouter.route(TOPOLOGY, "parse", input("en", 5000, 1, "high"));
    assertThat(decision)
        .isInstanceOfSatisfying(
            RoutingDecision.Routed.class,
            r -> {
              assertThat(r.destinations())
                  .extracting(Destination::toNodeId)
                  .containsExactly("urgent", "en", "big", "all");
              assertThat(r.destinations())
                  .extracting(Destination::behavior)
                  .containsExactly(
                      EdgeBehavior.PERSIST,
                      EdgeBehavior.PERSIST,
                      EdgeBehavior.PERSIST,
                      EdgeBehavior.MEMORY);
            });
  }

  @Test
  void onlyTheEdgesWhoseConditionHolds() {
    RoutingDecision decision = EdgeRouter.route(TOPOLOGY, "parse", input("de", 10, 1, "low"));
    assertThat(decision)
        .isEqualTo(
            new RoutingDecision.Routed(
                List.of(new Destination(GRAPH.getEdges(3), "all", EdgeBehavior.MEMORY))));
  }

  @Test
  void anExclusiveEdgeStopsLowerPriorities() {
    GraphTopology t =
        GraphTopology.load(
            GRAPH.toBuilder().setEdges(1, GRAPH.getEdges(1).toBuilder().setExclusive(true)).build(),
            ENV);
    RoutingDecision decision = EdgeRouter.route(t, "parse", input("en", 5000, 1, "high"));
    assertThat(((RoutingDecision.Routed) decision).destinations())
        .extracting(Destination::toNodeId)
        .containsExactly("urgent", "en");
  }

  @Test
  void aMissingMapKeyFailsTheDecisionNamingTheEdge() {
    RoutingDecision decision = EdgeRouter.route(TOPOLOGY, "parse", input("en", 5000, 1, null));
    assertThat(decision)
        .isInstanceOfSatisfying(
            RoutingDecision.Failed.class,
            f -> {
              assertThat(f.edgeId()).isEqualTo("to-urgent");
              assertThat(f.reason()).contains("edge:to-urgent").contains("priority");
            });
  }

  @Test
  void maxHopsFromHopHistoryBlocksTheEdgeAndSaysSo() {
    PipelineGraph limited =
        GRAPH.toBuilder()
            .setSettings(GraphSettings.newBuilder().setDefaultMaxHops(10))
            .setEdges(3, GRAPH.getEdges(3).toBuilder().setMaxHops(2))
            .build();
    GraphTopology t = GraphTopology.load(limited, ENV);
    assertThat(EdgeRouter.route(t, "parse", input("de", 10, 1, "low")))
        .isInstanceOf(RoutingDecision.Routed.class);
    assertThat(EdgeRouter.route(t, "parse", input("de", 10, 2, "low")))
        .isEqualTo(new RoutingDecision.Terminal(List.of("to-all")));
    // History counts even when the counter was not carried (a rebuilt stream).
    CelInput rebuilt =
        new CelInput(
            input("de", 10, 0, "low").document(),
            PipeStream.newBuilder()
                .setMetadata(
                    StreamMetadata.newBuilder()
                        .putContextParams("priority", "low")
                        .addProcessingPath("in")
                        .addProcessingPath("parse"))
                .build());
    assertThat(EdgeRouter.route(t, "parse", rebuilt)).isInstanceOf(RoutingDecision.Terminal.class);
    // The graph default applies where the edge sets none.
    assertThat(EdgeRouter.route(t, "in", input("de", 10, 10, "low")))
        .isEqualTo(new RoutingDecision.Terminal(List.of("in-parse")));
  }

  @Test
  void aLeafIsATerminalWithNothingBlocked() {
    assertThat(EdgeRouter.route(TOPOLOGY, "en", input("en", 1, 1, "x")))
        .isEqualTo(new RoutingDecision.Terminal(List.of()));
  }

  @Test
  void rightToBeForgottenForcesMemoryOnEveryEdge() {
    CelInput base = input("en", 5000, 1, "high");
    CelInput rtbf =
        new CelInput(
            base.document().toBuilder()
                .setOwnership(OwnershipContext.newBuilder().setRightToBeForgotten(true))
                .build(),
            base.stream());
    RoutingDecision decision = EdgeRouter.route(TOPOLOGY, "parse", rtbf);
    assertThat(((RoutingDecision.Routed) decision).destinations())
        .extracting(Destination::behavior)
        .containsOnly(EdgeBehavior.MEMORY);
  }

  @Test
  void routingCompilesNothing() {
    long before = ENV.compilations();
    for (int i = 0; i < 50; i++) {
      EdgeRouter.route(TOPOLOGY, "parse", input("en", i * 100, 1, "high"));
    }
    assertThat(ENV.compilations()).isEqualTo(before);
  }
}
