package dev.protomolt.core.graph;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GraphCacheTest {

  private static final PipelineCelEnvironment ENV = PipelineCelEnvironment.create();

  /** An in-memory store standing in for Postgres; counts what the cache asks it. */
  static final class MapSource implements GraphVersionSource {
    final Map<String, PipelineGraph> versions = new HashMap<>();
    final Map<String, Long> active = new HashMap<>();
    int loads;

    void add(PipelineGraph g) {
      versions.put(g.getGraphId() + "@" + g.getVersion(), g);
    }

    @Override
    public Optional<PipelineGraph> load(String graphId, long version) {
      loads++;
      return Optional.ofNullable(versions.get(graphId + "@" + version));
    }

    @Override
    public Optional<PipelineGraph> loadActive(String graphId) {
      loads++;
      Long v = active.get(graphId);
      return v == null ? Optional.empty() : load(graphId, v);
    }
  }

  private final MapSource source = new MapSource();
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final GraphCache cache = new GraphCache(source, ENV, clock, Duration.ofMinutes(30));

  @Test
  void activationInstallsThenFlipsAndPinnedVersionsSurviveANewerActivation() {
    cache.activate(linear("g", 1), cache.deactivationEpoch("g"));
    PipelineGraph v2 =
        linear("g", 2).toBuilder().removeNodes(2).removeEdges(2).removeEdges(1).build();
    cache.activate(v2, cache.deactivationEpoch("g"));

    assertThat(cache.topology("g", 0)).get().extracting(GraphTopology::version).isEqualTo(2L);
    // A document pinned to v1 still resolves v1's node that v2 dropped.
    assertThat(cache.nodePinned("g", 1, "chunk").topology().version()).isEqualTo(1L);
    assertThat(cache.nodePinned("g", 1, "chunk").topology().edgesFrom("chunk"))
        .extracting(e -> e.getEdgeId())
        .containsExactly("e3");
    assertThat(source.loads).as("nothing went to the store").isZero();
  }

  @Test
  void rollbackIsActivatingAnOlderVersion() {
    cache.activate(linear("g", 1), 0);
    cache.activate(linear("g", 2), 0);
    cache.activate(linear("g", 1), 0);
    assertThat(cache.activeVersion("g")).contains(1L);
  }

  @Test
  void staleSnapshotReadBeforeADeactivationIsRefused() {
    long observed = cache.deactivationEpoch("g");
    cache.activate(linear("g", 1), observed);
    long epoch = cache.deactivate("g");

    assertThat(epoch).isEqualTo(observed + 1);
    assertThat(cache.activeVersion("g")).isEmpty();
    assertThatThrownBy(() -> cache.activate(linear("g", 1), observed))
        .isInstanceOf(StaleActivationException.class)
        .hasMessageContaining("graph 'g' version 1")
        .hasMessageContaining("epoch 0")
        .hasMessageContaining("(epoch 1)");
    assertThat(cache.activeVersion("g")).isEmpty();
    // Re-reading after the deactivation carries the new epoch and is accepted.
    cache.activate(linear("g", 1), epoch);
    assertThat(cache.activeVersion("g")).contains(1L);
  }

  @Test
  void deactivationKeepsVersionsSoPinnedDocumentsDrain() {
    cache.activate(linear("g", 1), 0);
    cache.deactivate("g");
    assertThat(cache.nodePinned("g", 1, "parse").node().getModuleId()).isEqualTo("parser");
    assertThat(source.loads).isZero();
  }

  @Test
  void epochSurvivesForgettingTheGraph() {
    cache.activate(linear("g", 1), 0);
    cache.deactivate("g");
    cache.forget("g", 1);
    assertThat(cache.deactivationEpoch("g")).isEqualTo(1);
    assertThatThrownBy(() -> cache.activate(linear("g", 1), 0))
        .isInstanceOf(StaleActivationException.class);
  }

  @Test
  void idleVersionsExpireAndReloadExactlyThatVersionOnMiss() {
    source.add(linear("g", 1));
    source.add(linear("g", 2));
    cache.put(linear("g", 1));
    clock.advance(Duration.ofMinutes(29));
    assertThat(cache.topology("g", 1)).isPresent();
    assertThat(cache.reloads()).isZero();

    clock.advance(Duration.ofMinutes(29));
    assertThat(cache.evictIdle()).as("touched 29 minutes ago: still warm").isZero();
    clock.advance(Duration.ofMinutes(2));
    assertThat(cache.evictIdle()).isEqualTo(1);
    assertThat(cache.size()).isZero();

    GraphTopology reloaded = cache.topology("g", 1).orElseThrow();
    assertThat(reloaded.version()).isEqualTo(1);
    assertThat(cache.reloads()).isEqualTo(1);
    assertThat(source.loads).isEqualTo(1);
  }

  @Test
  void unpinnedLookupReloadsTheActiveVersionOnAColdInstance() {
    source.add(linear("g", 3));
    source.active.put("g", 3L);
    assertThat(cache.topology("g", 0)).get().extracting(GraphTopology::version).isEqualTo(3L);
    assertThat(cache.activeVersion("g")).contains(3L);
  }

  @Test
  void pinToADeletedVersionFailsLoudNamingNodeGraphVersionAndHowToRepin() {
    assertThatThrownBy(() -> cache.nodePinned("g", 7, "parse"))
        .isInstanceOf(OrphanedPinException.class)
        .hasMessage(
            "document pinned to node 'parse' of graph 'g' version 7, but that version does not"
                + " exist (deleted?). Re-pin by replaying the document on an existing version of"
                + " 'g' (for example the active one) or by re-admitting it through intake; nothing"
                + " will run it on version 7.");
  }

  @Test
  void pinToANodeRemovedFromItsVersionFailsLoud() {
    source.add(linear("g", 1));
    assertThatThrownBy(() -> cache.nodePinned("g", 1, "ocr"))
        .isInstanceOf(OrphanedPinException.class)
        .hasMessageContaining("node 'ocr' of graph 'g' version 1")
        .hasMessageContaining("has no node 'ocr'")
        .hasMessageContaining("Re-pin by replaying");
  }

  @Test
  void expressionsCompileOnceAtLoadAndNeverOnLookup() {
    long before = ENV.compilations();
    cache.activate(linear("g", 1), 0);
    long afterLoad = ENV.compilations();
    assertThat(afterLoad - before).isEqualTo(1);
    for (int i = 0; i < 100; i++) {
      cache.nodePinned("g", 1, "parse").topology().expressions().find("edge:e2").orElseThrow();
    }
    assertThat(ENV.compilations()).isEqualTo(afterLoad);
  }

  @Test
  void topologyGroupsEdgesBySourceInPriorityOrder() {
    PipelineGraph g =
        linear("g", 1).toBuilder()
            .addNodes(SampleGraphs.processor("b", "m"))
            .addNodes(SampleGraphs.processor("a", "m"))
            .addEdges(SampleGraphs.edge("z-first", "parse", "b", "", -1))
            .addEdges(SampleGraphs.edge("tie-b", "parse", "a", "", 5))
            .addEdges(SampleGraphs.edge("tie-a", "parse", "a", "true", 5))
            .build();
    GraphTopology t = GraphTopology.load(g, ENV);
    assertThat(t.edgesFrom("parse"))
        .extracting(e -> e.getEdgeId())
        .containsExactly("z-first", "e2", "tie-a", "tie-b");
    assertThat(t.edgesFrom("index")).isEmpty();
    assertThat(t.nodesById()).containsOnlyKeys("in", "parse", "chunk", "index", "b", "a");
  }
}
