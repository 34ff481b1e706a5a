package dev.protomolt.engine.activation;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.InMemoryDraftStore;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.GraphUpdateFeed;
import dev.protomolt.engine.graphs.PipelineGraphGrpcService;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.proto.engine.v1.CreateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphRequest;
import dev.protomolt.proto.engine.v1.GraphVersionRef;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Instant;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Activation against the local Step Functions runtime through {@link SfnClient}, with the graph
 * store on embedded PostgreSQL: compile, create, publish, record, alias; rollback moves the alias.
 */
class GraphActivationServiceTest {

  private LocalStepFunctions runtime;
  private SfnClient sfn;
  private GraphStore store;
  private GraphAdminService admin;
  private GraphActivationService activation;

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EngineDatabase.fresh();
    runtime =
        LocalStepFunctions.start(
            0,
            ds,
            (fn, payload) -> "{}",
            new dev.protomolt.localstack.sfn.FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
    sfn = EngineTestClients.controlPlaneSfn(runtime.endpoint());
    store = new PostgresGraphStore(ds);
    admin =
        new GraphAdminService(
            store,
            new StepFunctionsVersionPins(sfn, store),
            event -> {},
            GraphValidator.standard(EngineDatabase.CEL, EngineDatabase.TENANCY),
            new FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
    activation =
        new GraphActivationService(
            admin, new SfnStateMachines(sfn, EngineTestClients.ROLE), EngineTestClients.FUNCTIONS);
  }

  @AfterEach
  void stop() {
    sfn.close();
    runtime.close();
  }

  @Test
  void activationPublishesAVersionRecordsItsArnAndPointsTheAlias() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");

    GraphActivationService.Activation done = activation.activate("g1", "c1", 1);

    assertThat(done.machineArn()).endsWith(":stateMachine:protomolt-test-g1");
    assertThat(done.versionArn()).isEqualTo(done.machineArn() + ":1");
    assertThat(store.get("g1", 1).orElseThrow().stateMachineVersionArn())
        .isEqualTo(done.versionArn());
    assertThat(store.get("g1", 1).orElseThrow().active()).isTrue();
    assertThat(aliasTarget(done.machineArn())).isEqualTo(done.versionArn());
    // The published definition names its own version ARN for fan-out children, and the engine
    // Lambdas.
    String definition =
        sfn.describeStateMachine(b -> b.stateMachineArn(done.versionArn())).definition();
    assertThat(definition).contains(EngineTestClients.FUNCTIONS.prepareArn()).doesNotContain("${");
  }

  @Test
  void aNewVersionPublishesTheNextStateMachineVersionAndRollbackMovesTheAliasBack() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    GraphActivationService.Activation first = activation.activate("g1", "c1", 1);
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");

    GraphActivationService.Activation second = activation.activate("g1", "c1", 2);
    assertThat(second.versionArn()).isEqualTo(first.machineArn() + ":2");
    assertThat(aliasTarget(first.machineArn())).isEqualTo(second.versionArn());

    GraphActivationService.Activation rolledBack = activation.activate("g1", "c1", 1);
    assertThat(rolledBack.versionArn())
        .as("no republish on rollback")
        .isEqualTo(first.versionArn());
    assertThat(aliasTarget(first.machineArn())).isEqualTo(first.versionArn());
    assertThat(store.get("g1", 1).orElseThrow().active()).isTrue();
    assertThat(store.get("g1", 2).orElseThrow().active()).isFalse();
    // An execution started on the alias now runs on version 1.
    String execution =
        sfn.startExecution(
                b ->
                    b.stateMachineArn(first.machineArn() + ":active")
                        .name("probe")
                        .input("{\"node\":\"nowhere\",\"stream\":{}}"))
            .executionArn();
    assertThat(sfn.describeExecution(b -> b.executionArn(execution)).stateMachineVersionArn())
        .isEqualTo(first.versionArn());
  }

  @Test
  void repeatingAnActivationConvergesWithoutANewVersion() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    GraphActivationService.Activation once = activation.activate("g1", "c1", 1);
    GraphActivationService.Activation twice = activation.activate("g1", "c1", 1);
    assertThat(twice).isEqualTo(once);
  }

  @Test
  void aMissingVersionIsRefusedNamingIt() {
    assertThatThrownBy(() -> activation.activate("g9", "c1", 3))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.NOT_FOUND))
        .hasMessageContaining("graph 'g9' version 3");
  }

  @Test
  void aVersionPublishedBehindTheEnginesBackIsRefusedAndNotRecorded() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String machine = activation.activate("g1", "c1", 1).machineArn();
    // Someone publishes version 2 by hand; the engine would predict :2 for graph version 2.
    String stray =
        sfn.updateStateMachine(
                b ->
                    b.stateMachineArn(machine)
                        .definition(
                            sfn.describeStateMachine(d -> d.stateMachineArn(machine)).definition()
                                + " ")
                        .publish(true))
            .stateMachineVersionArn();
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");

    assertThatThrownBy(() -> activation.activate("g1", "c1", 2))
        .isInstanceOf(GraphAdminException.class)
        .hasMessageContaining("has versions the graph store does not know of");
    assertThat(stray).endsWith(":2");
    assertThat(store.get("g1", 2).orElseThrow().stateMachineVersionArn()).isEmpty();
    assertThat(aliasTarget(machine)).endsWith(":1");
  }

  @Test
  void theGrpcDoorActivatesRollsBackAndDeactivatesThroughActivation() throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new PipelineGraphGrpcService(
                    admin,
                    new DraftService(
                        new InMemoryDraftStore(),
                        GraphValidator.standard(EngineDatabase.CEL, EngineDatabase.TENANCY),
                        new FakeClock(Instant.parse("2026-03-01T12:00:00Z"))),
                    new GraphUpdateFeed(event -> {})))
            .build()
            .start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      var stub = PipelineGraphServiceGrpc.newBlockingStub(channel);
      stub.createGraph(CreateGraphRequest.newBuilder().setGraph(linear("g1", 0)).build());
      stub.createGraph(CreateGraphRequest.newBuilder().setGraph(linear("g1", 0)).build());

      var first =
          stub.activateGraph(
              GraphVersionRef.newBuilder()
                  .setGraphId("g1")
                  .setClusterId("c1")
                  .setVersion(1)
                  .build());
      String machine =
          first
              .getStateMachineVersionArn()
              .substring(0, first.getStateMachineVersionArn().lastIndexOf(':'));
      assertThat(first.getStateMachineVersionArn()).isEqualTo(machine + ":1");
      assertThat(aliasTarget(machine)).isEqualTo(machine + ":1");
      var second =
          stub.activateGraph(
              GraphVersionRef.newBuilder()
                  .setGraphId("g1")
                  .setClusterId("c1")
                  .setVersion(2)
                  .build());
      assertThat(second.getStateMachineVersionArn()).isEqualTo(machine + ":2");
      assertThat(aliasTarget(machine)).isEqualTo(machine + ":2");

      var rolledBack =
          stub.activateGraph(
              GraphVersionRef.newBuilder()
                  .setGraphId("g1")
                  .setClusterId("c1")
                  .setVersion(1)
                  .build());
      assertThat(rolledBack.getStateMachineVersionArn())
          .as("rollback republishes nothing")
          .isEqualTo(machine + ":1");
      assertThat(aliasTarget(machine))
          .as("rollback moves the alias back")
          .isEqualTo(machine + ":1");

      var off =
          stub.deactivateGraph(
              DeactivateGraphRequest.newBuilder().setGraphId("g1").setClusterId("c1").build());
      assertThat(off.getDeactivatedVersion()).isEqualTo(1);
      assertThat(store.get("g1", 0)).as("nothing active in the store").isEmpty();
      assertThat(store.subscriptions("ds-1")).as("so admission reaches no alias").isEmpty();
      assertThat(aliasTarget(machine))
          .as("the alias stays where it was (decision 0811)")
          .isEqualTo(machine + ":1");
    } finally {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  @Test
  void createAndActivateDeploysToo() {
    var active = admin.createAndActivate(linear("g1", 0), OptionalLong.empty(), "ann");
    assertThat(active.stateMachineVersionArn()).endsWith(":stateMachine:protomolt-test-g1:1");
    assertThat(aliasTarget(GraphActivationService.machineOf(active.stateMachineVersionArn())))
        .isEqualTo(active.stateMachineVersionArn());
  }

  @Test
  void theNextPublishedVersionIsPredictedRightAfterTheNewestGraphVersionWasDeleted() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String machine = activation.activate("g1", "c1", 1).machineArn();
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    activation.activate("g1", "c1", 2);
    activation.activate("g1", "c1", 1);
    // Version 2 (state machine version :2) is drained and deleted: its number must not be reused.
    admin.delete("g1", "c1", 2);
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");

    GraphActivationService.Activation third = activation.activate("g1", "c1", 3);
    assertThat(third.versionArn()).isEqualTo(machine + ":3");
    assertThat(aliasTarget(machine)).isEqualTo(machine + ":3");
    assertThat(store.lastStateMachineVersion("g1")).isEqualTo(3);
  }

  @Test
  void machineNamesAreSafeAndBounded() {
    assertThat(StateMachineNames.machineName("test", "g1")).isEqualTo("protomolt-test-g1");
    String odd = StateMachineNames.machineName("test", "ocr/tesseract (fallback)");
    assertThat(odd).matches("protomolt-test-ocr_tesseract__fallback_-[0-9a-f]{10}");
    assertThat(StateMachineNames.machineName("test", "x".repeat(200))).hasSize(80);
    assertThatThrownBy(() -> StateMachineNames.machineName("Prod!", "g1"))
        .hasMessageContaining("environment must be 1-16 characters of [a-z0-9]");
  }

  private String aliasTarget(String machineArn) {
    return sfn.describeStateMachineAlias(b -> b.stateMachineAliasArn(machineArn + ":active"))
        .routingConfiguration()
        .getFirst()
        .stateMachineVersionArn();
  }
}
