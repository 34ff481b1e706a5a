package dev.protomolt.core.graph;

import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GraphStore} must do. Subclassed by the in-memory store here and by the
 * Postgres adapter in functions/engine; each subclass hands over a fresh, empty store.
 */
public abstract class GraphStoreContract {

  protected static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  protected GraphStore store;

  /** A store with no graphs in it. */
  protected abstract GraphStore emptyStore() throws Exception;

  @BeforeEach
  void freshStore() throws Exception {
    store = emptyStore();
  }

  private StoredGraph create(PipelineGraph graph) {
    return store.create(graph, OptionalLong.empty(), "ann", NOW);
  }

  @Test
  void createAssignsIncreasingVersionsAndStagesThemInactive() {
    StoredGraph v1 = create(linear("g", 0));
    StoredGraph v2 = create(linear("g", 0));
    assertThat(v1.graph().getVersion()).isEqualTo(1);
    assertThat(v2.graph().getVersion()).isEqualTo(2);
    assertThat(v1.active()).isFalse();
    assertThat(v2.graph().getCreatedBy()).isEqualTo("ann");
    assertThat(v2.graph().getCreatedAt().getSeconds()).isEqualTo(NOW.getEpochSecond());
    assertThat(store.get("g", 2)).get().extracting(StoredGraph::graph).isEqualTo(v2.graph());
    assertThat(store.get("g", 0)).as("nothing active yet").isEmpty();
  }

  @Test
  void callerPickedVersionLosesTheRaceCleanly() {
    create(linear("g", 0));
    StoredGraph mine = store.create(linear("g", 0), OptionalLong.of(2), "ann", NOW);
    assertThat(mine.graph().getVersion()).isEqualTo(2);
    // Bob forked from v1 too and also picked 2: he lost.
    assertThatThrownBy(() -> store.create(linear("g", 0), OptionalLong.of(2), "bob", NOW))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.ABORTED))
        .hasMessageContaining("expected_version 2 is not the next version (3)");
    assertThat(store.versions("g")).hasSize(2);
    assertThat(store.get("g", 2)).get().extracting(s -> s.graph().getCreatedBy()).isEqualTo("ann");
  }

  @Test
  void versionNumbersAreNeverReusedAfterADelete() {
    create(linear("g", 0));
    create(linear("g", 0));
    store.delete("g", "c1", 2);
    assertThat(create(linear("g", 0)).graph().getVersion()).isEqualTo(3);
  }

  @Test
  void oneActiveVersionAndRollback() {
    create(linear("g", 0));
    create(linear("g", 0));
    store.activate("g", "c1", 1, 0);
    store.activate("g", "c1", 2, 0);
    assertThat(store.get("g", 0)).get().extracting(s -> s.graph().getVersion()).isEqualTo(2L);
    assertThat(store.versions("g")).extracting(StoredGraph::active).containsExactly(false, true);
    // Rollback is activating the older version.
    store.activate("g", "c1", 1, 0);
    assertThat(store.versions("g")).extracting(StoredGraph::active).containsExactly(true, false);
  }

  @Test
  void activationReadBeforeADeactivationIsRefused() {
    create(linear("g", 0));
    store.activate("g", "c1", 1, 0);
    long observed = store.deactivationEpoch("g");
    GraphStore.Deactivation off = store.deactivate("g", "c1");
    assertThat(off).isEqualTo(new GraphStore.Deactivation(1, observed + 1));
    assertThatThrownBy(() -> store.activate("g", "c1", 1, observed))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessageContaining("deactivated since (epoch 1)");
    assertThat(store.get("g", 0)).isEmpty();
    assertThat(store.activate("g", "c1", 1, off.epoch()).active()).isTrue();
  }

  @Test
  void epochIsMonotonicAndSurvivesDeletingEveryVersion() {
    create(linear("g", 0));
    store.deactivate("g", "c1");
    store.deactivate("g", "c1");
    store.delete("g", "c1", 1);
    assertThat(store.deactivationEpoch("g")).isEqualTo(2);
    assertThat(store.deactivationEpoch("never-seen")).isZero();
  }

  @Test
  void deletingTheActiveVersionIsRefused() {
    create(linear("g", 0));
    store.activate("g", "c1", 1, 0);
    assertThatThrownBy(() -> store.delete("g", "c1", 1))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessageContaining("version 1 is active");
    assertThat(store.get("g", 1)).isPresent();
  }

  @Test
  void unknownVersionsAndClustersAreNotFound() {
    create(linear("g", 0));
    assertThatThrownBy(() -> store.activate("g", "c1", 9, 0))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND))
        .hasMessage("graph 'g' version 9 does not exist in cluster 'c1'");
    assertThatThrownBy(() -> store.activate("g", "other", 1, 0))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND));
    assertThatThrownBy(
            () ->
                store.create(
                    linear("g", 0).toBuilder().setClusterId("other").build(),
                    OptionalLong.empty(),
                    "ann",
                    NOW))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INVALID_ARGUMENT))
        .hasMessageContaining("belongs to cluster 'c1'");
    assertThatThrownBy(() -> store.create(linear("", 0), OptionalLong.empty(), "ann", NOW))
        .hasMessage("graph.graph_id must not be blank");
  }

  @Test
  void subscriptionsFollowTheActiveVersionAcrossGraphs() {
    create(linear("g", 0));
    create(linear("g", 0).toBuilder().setNodes(0, intake("in", "ds-2")).build());
    create(linear("h", 0).toBuilder().setAccountId("globex").build());
    assertThat(store.subscriptions("ds-1")).isEmpty();

    store.activate("g", "c1", 1, 0);
    store.activate("h", "c1", 1, 0);
    assertThat(store.subscriptions("ds-1"))
        .extracting(DatasourceSubscription::getSubscriptionId)
        .containsExactly("g:1:ds-1", "h:1:ds-1");
    DatasourceSubscription h = store.subscriptions("ds-1").get(1);
    assertThat(h.getAccountId()).isEqualTo("globex");
    assertThat(h.getIntakeNodeId()).isEqualTo("in");

    store.activate("g", "c1", 2, 0);
    assertThat(store.subscriptions("ds-1"))
        .extracting(DatasourceSubscription::getSubscriptionId)
        .containsExactly("h:1:ds-1");
    assertThat(store.subscriptions("ds-2"))
        .extracting(DatasourceSubscription::getSubscriptionId)
        .containsExactly("g:2:ds-2");

    store.deactivate("h", "c1");
    assertThat(store.subscriptions("ds-1")).isEmpty();
  }

  @Test
  void theStateMachineVersionIsRecordedOnceAndSurvivesActivation() {
    create(linear("g", 0));
    String arn = "arn:aws:states:us-east-1:000000000000:stateMachine:g:1";
    assertThat(store.recordStateMachineVersion("g", 1, arn).stateMachineVersionArn())
        .isEqualTo(arn);
    assertThat(store.recordStateMachineVersion("g", 1, arn).stateMachineVersionArn())
        .as("idempotent")
        .isEqualTo(arn);
    assertThat(store.activate("g", "c1", 1, 0).stateMachineVersionArn()).isEqualTo(arn);
    assertThat(store.get("g", 0).orElseThrow().stateMachineVersionArn()).isEqualTo(arn);
    assertThatThrownBy(() -> store.recordStateMachineVersion("g", 1, arn + "-other"))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.FAILED_PRECONDITION))
        .hasMessageContaining("already runs on " + arn);
    assertThatThrownBy(() -> store.recordStateMachineVersion("g", 1, " "))
        .hasMessageContaining("state_machine_version_arn must not be blank");
    assertThatThrownBy(() -> store.recordStateMachineVersion("g", 5, arn))
        .isInstanceOfSatisfying(
            GraphAdminException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND));
  }

  @Test
  void theHighestStateMachineVersionNumberSurvivesDeletingItsGraphVersion() {
    create(linear("g", 0));
    create(linear("g", 0));
    assertThat(store.lastStateMachineVersion("g")).isZero();
    store.recordStateMachineVersion(
        "g", 1, "arn:aws:states:us-east-1:000000000000:stateMachine:g:1");
    store.recordStateMachineVersion(
        "g", 2, "arn:aws:states:us-east-1:000000000000:stateMachine:g:2");
    store.activate("g", "c1", 1, 0);
    store.delete("g", "c1", 2);
    assertThat(store.lastStateMachineVersion("g"))
        .as("version 2's number is not forgotten")
        .isEqualTo(2);
    assertThat(store.lastStateMachineVersion("unknown")).isZero();
  }

  @Test
  void listsGraphsByClusterShowingTheActiveOrNewestVersion() {
    create(linear("a", 0));
    create(linear("a", 0));
    create(linear("b", 0));
    create(linear("b", 0));
    create(linear("z", 0).toBuilder().setClusterId("c2").build());
    store.activate("b", "c1", 1, 0);
    assertThat(store.graphs("c1"))
        .extracting(s -> s.graph().getGraphId() + "@" + s.graph().getVersion() + ":" + s.active())
        .containsExactly("a@2:false", "b@1:true");
  }
}
