package dev.protomolt.core.graph;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphUpdateApplier.Outcome;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GraphUpdateApplierTest {

  private final GraphCache cache =
      new GraphCache(
          new GraphVersionSource() {
            @Override
            public Optional<PipelineGraph> load(String graphId, long version) {
              return Optional.empty();
            }

            @Override
            public Optional<PipelineGraph> loadActive(String graphId) {
              return Optional.empty();
            }
          },
          PipelineCelEnvironment.create(),
          new FakeClock(Instant.EPOCH),
          Duration.ofMinutes(30));
  private final GraphUpdateApplier applier = new GraphUpdateApplier(cache);

  private static GraphUpdateEvent event(GraphUpdateType type, long version, long epoch) {
    GraphUpdateEvent.Builder e =
        GraphUpdateEvent.newBuilder()
            .setType(type)
            .setGraphId("g")
            .setClusterId("c1")
            .setVersion(version)
            .setDeactivationEpoch(epoch);
    if (type == GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED
        || type == GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED) {
      e.setGraph(linear("g", version));
    }
    return e.build();
  }

  @Test
  void theBroadcastSequenceConvergesAndARedeliveredOldActivationIsFenced() {
    GraphUpdateEvent activatedV1 = event(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED, 1, 0);
    assertThat(applier.apply(event(GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED, 1, 0)))
        .isEqualTo(Outcome.APPLIED);
    assertThat(cache.activeVersion("g")).isEmpty();
    assertThat(applier.apply(activatedV1)).isEqualTo(Outcome.APPLIED);
    assertThat(cache.activeVersion("g")).contains(1L);

    assertThat(applier.apply(event(GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED, 1, 1)))
        .isEqualTo(Outcome.APPLIED);
    assertThat(cache.activeVersion("g")).isEmpty();
    assertThat(cache.deactivationEpoch("g")).isEqualTo(1);
    // A redelivery of the old activation must not switch the graph back on.
    assertThat(applier.apply(activatedV1)).isEqualTo(Outcome.STALE_IGNORED);
    assertThat(cache.activeVersion("g")).isEmpty();
    // Redelivered deactivation: idempotent.
    applier.apply(event(GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED, 1, 1));
    assertThat(cache.deactivationEpoch("g")).isEqualTo(1);

    assertThat(applier.apply(event(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED, 1, 1)))
        .isEqualTo(Outcome.APPLIED);
    assertThat(cache.activeVersion("g")).contains(1L);
    applier.apply(event(GraphUpdateType.GRAPH_UPDATE_TYPE_DELETED, 1, 1));
    assertThat(cache.size()).isZero();
    assertThat(applier.apply(GraphUpdateEvent.getDefaultInstance())).isEqualTo(Outcome.IGNORED);
  }
}
