package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.InMemoryVersionPins;
import dev.protomolt.core.graph.OrphanedPinException;
import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.proto.config.v1.GraphMode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Graph lifecycle on real PostgreSQL: validation, events, pins, races, rollback and the runtime cache. */
class GraphAdminServiceTest {

  static final PipelineCelEnvironment CEL = PipelineCelEnvironment.create();
  static final TenancyDirectory TENANCY =
      id -> Optional.ofNullable(Map.of("ds-1", "acme", "ds-2", "acme").get(id));

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final InMemoryVersionPins pins = new InMemoryVersionPins();
  private final RecordingPublisher events = new RecordingPublisher();
  private GraphStore store;
  private GraphAdminService admin;

  @BeforeEach
  void setUp() throws Exception {
    store = new PostgresGraphStore(EmbeddedDatabase.emptied());
    admin =
        new GraphAdminService(store, pins, events, GraphValidator.standard(CEL, TENANCY), clock);
  }

  private long create() {
    return admin.create(linear("g", 0), OptionalLong.empty(), "ann").graph().getVersion();
  }

  @Test
  void createStagesAnInactiveVersionAndAnnouncesTheSnapshot() {
    long v = create();
    assertThat(store.get("g", v)).get().extracting(GraphStore.StoredGraph::active).isEqualTo(false);
    assertThat(events.events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getType()).isEqualTo(GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED);
              assertThat(e.getGraph().getNodesCount()).isEqualTo(4);
              assertThat(e.getVersion()).isEqualTo(1);
              assertThat(e.getOccurredAt().getSeconds())
                  .isEqualTo(clock.instant().getEpochSecond());
            });
  }

  @Test
  void anInvalidGraphIsRefusedWithEveryViolationAndNothingIsStored() {
    PipelineGraph bad =
        linear("g", 0).toBuilder()
            .addEdges(SampleGraphs.edge("e9", "chunk", "parse", "document.x == 1", 0))
            .build();
    assertThatThrownBy(() -> admin.create(bad, OptionalLong.empty(), "ann"))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessageContaining("fails DESIGN validation")
        .hasMessageContaining("[NoCycles] cycle parse -> chunk -> parse")
        .hasMessageContaining("[CelExpression] edge 'e9'");
    assertThat(store.versions("g")).isEmpty();
    assertThat(events.events).isEmpty();
  }

  @Test
  void productionGraphsAreHeldToProductionRules() {
    PipelineGraph noPlans =
        linear("g", 0).toBuilder()
            .setMode(GraphMode.GRAPH_MODE_PRODUCTION)
            .setNodes(3, SampleGraphs.sink("index"))
            .build();
    assertThatThrownBy(() -> admin.create(noPlans, OptionalLong.empty(), "ann"))
        .hasMessageContaining(
            "fails PRODUCTION validation: [SinkRequiresPlans] sink node 'index' has no"
                + " index_plan_ids");
  }

  @Test
  void deleteIsRefusedWhileDocumentsArePinnedAndAllowedOnceTheyDrain() {
    create();
    create();
    admin.activate("g", "c1", 2);
    pins.pin("g", 1);
    pins.pin("g", 1);
    assertThatThrownBy(() -> admin.delete("g", "c1", 1))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessage(
            "graph 'g' version 1 has 2 running execution(s) pinned to it and cannot be deleted; "
                + "deactivate it and let them drain, then delete");
    assertThatThrownBy(() -> admin.delete("g", "c1", 2))
        .hasMessageContaining("version 2 is active and cannot be deleted");
    pins.release("g", 1);
    pins.release("g", 1);
    admin.delete("g", "c1", 1);
    assertThat(store.get("g", 1)).isEmpty();
    assertThat(events.events.getLast().getType())
        .isEqualTo(GraphUpdateType.GRAPH_UPDATE_TYPE_DELETED);
  }

  @Test
  void rollbackActivatesTheOlderVersionAndMovesTheSubscriptions() {
    create();
    admin.create(
        linear("g", 0).toBuilder().setNodes(0, SampleGraphs.intake("in", "ds-2")).build(),
        OptionalLong.empty(),
        "ann");
    admin.activate("g", "c1", 2);
    assertThat(store.subscriptions("ds-2")).hasSize(1);
    admin.activate("g", "c1", 1);
    assertThat(store.get("g", 0)).get().extracting(s -> s.graph().getVersion()).isEqualTo(1L);
    assertThat(store.subscriptions("ds-2")).isEmpty();
    assertThat(store.subscriptions("ds-1"))
        .extracting(s -> s.getSubscriptionId())
        .containsExactly("g:1:ds-1");
    assertThat(events.events)
        .extracting(GraphUpdateEvent::getType)
        .containsSubsequence(
            GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED,
            GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED);
  }

  @Test
  void aSnapshotReadBeforeADeactivationCannotBeInstalledAfterIt() {
    create();
    admin.activate("g", "c1", 1);
    // A slow caller reads the snapshot and the epoch...
    long observed = store.deactivationEpoch("g");
    PipelineGraph snapshot = store.get("g", 1).orElseThrow().graph();
    // ...an operator switches the graph off meanwhile...
    var off = admin.deactivate("g", "c1");
    assertThat(off.deactivatedVersion()).isEqualTo(1);
    // ...and the slow caller's activation is refused.
    assertThatThrownBy(() -> admin.activateAt(snapshot, observed))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessageContaining("deactivated since");
    assertThat(store.get("g", 0)).isEmpty();
    assertThat(events.events.getLast().getType())
        .isEqualTo(GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED);
    assertThat(events.events.getLast().getDeactivationEpoch()).isEqualTo(off.epoch());
  }

  @Test
  void theActivationEventCarriesTheRecordedStateMachineVersion() {
    create();
    admin.recordStateMachineVersion(
        "g", 1, "arn:aws:states:us-east-1:000000000000:stateMachine:g:1");
    admin.activate("g", "c1", 1);
    assertThat(events.events.getLast().getStateMachineVersionArn())
        .isEqualTo("arn:aws:states:us-east-1:000000000000:stateMachine:g:1");
  }

  @Test
  void createAndActivateWithACallerPickedVersion() {
    create();
    var active = admin.createAndActivate(linear("g", 0), OptionalLong.of(2), "ann");
    assertThat(active.active()).isTrue();
    assertThat(active.graph().getVersion()).isEqualTo(2);
    assertThatThrownBy(() -> admin.createAndActivate(linear("g", 0), OptionalLong.of(2), "bob"))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.ABORTED));
  }

  @Test
  void aFailedBroadcastSaysTheChangeStandsAndARetryReannounces() {
    create();
    events.down = true;
    assertThatThrownBy(() -> admin.activate("g", "c1", 1))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNAVAILABLE))
        .hasMessageContaining(
            "was activated, but publishing the graph-updates event failed (broker unreachable)");
    assertThat(store.get("g", 0)).isPresent();
    events.down = false;
    admin.activate("g", "c1", 1);
    assertThat(events.events.getLast().getType())
        .isEqualTo(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED);
  }

  @Test
  void theRuntimeCacheReloadsOnMissFromPostgresAndFailsLoudOnADeletedVersion() {
    create();
    create();
    admin.activate("g", "c1", 2);
    GraphCache cache =
        new GraphCache(new StoredVersionSource(store), CEL, clock, Duration.ofMinutes(30));

    assertThat(cache.topology("g", 0)).get().extracting(t -> t.version()).isEqualTo(2L);
    assertThat(cache.nodePinned("g", 1, "chunk").node().getModuleId()).isEqualTo("chunker");
    clock.advance(Duration.ofMinutes(31));
    cache.evictIdle();
    assertThat(cache.size()).isZero();
    assertThat(cache.nodePinned("g", 1, "chunk").topology().version())
        .as("reloaded exactly v1")
        .isEqualTo(1L);

    admin.delete("g", "c1", 1);
    clock.advance(Duration.ofMinutes(31));
    assertThatThrownBy(() -> cache.nodePinned("g", 1, "chunk"))
        .isInstanceOf(OrphanedPinException.class)
        .hasMessageContaining("node 'chunk' of graph 'g' version 1")
        .hasMessageContaining("Re-pin by replaying");
  }

  @Test
  void blankReferencesAreRefusedNamingTheField() {
    assertThatThrownBy(() -> admin.activate("", "c1", 1)).hasMessage("graph_id must not be blank");
    assertThatThrownBy(() -> admin.deactivate("g", " ")).hasMessage("cluster_id must not be blank");
    assertThatThrownBy(() -> admin.delete("g", "c1", 0))
        .hasMessage("version must be positive, was 0");
  }
}
