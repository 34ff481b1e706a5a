package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.proto.config.v1.GraphMode;
import dev.protomolt.proto.config.v1.IndexPlan;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.engine.v1.DeclareIndexPlansRequest;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc.IndexPlanServiceBlockingStub;
import dev.protomolt.proto.engine.v1.ListIndexPlansRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The index-plan registry over real PostgreSQL and its gRPC door, and a PRODUCTION deploy that
 * reads it: a sink naming a declared plan of its own module deploys, any other is refused naming
 * the node and the plan.
 */
class IndexPlanRegistryTest {

  private static final IndexPlan PLAN =
      IndexPlan.newBuilder()
          .setPlanId("plan-1")
          .setModuleId("opensearch-sink")
          .setIndexName("docs-v1")
          .setVectorDimensions(384)
          .build();

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  private PostgresIndexPlans plans;
  private GraphAdminService admin;
  private Server server;
  private ManagedChannel channel;
  private IndexPlanServiceBlockingStub stub;

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EngineDatabase.fresh();
    plans = new PostgresIndexPlans(ds, clock);
    admin =
        new GraphAdminService(
            new PostgresGraphStore(ds),
            new dev.protomolt.core.graph.InMemoryVersionPins(),
            event -> {},
            GraphValidator.standard(EngineDatabase.CEL, EngineDatabase.TENANCY, plans),
            clock);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(new IndexPlanGrpcService(plans))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = IndexPlanServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  @Test
  void aProductionSinkDeploysOnlyOnceItsModuleDeclaredThePlan() {
    PipelineGraph production =
        linear("g", 0).toBuilder().setMode(GraphMode.GRAPH_MODE_PRODUCTION).build();
    assertThatThrownBy(() -> admin.create(production, OptionalLong.empty(), "ann"))
        .hasMessageContaining(
            "[IndexPlanProducible] sink node 'index' names index plan 'plan-1', which no sink"
                + " module has declared");

    stub.declareIndexPlans(DeclareIndexPlansRequest.newBuilder().addPlans(PLAN).build());

    assertThat(admin.create(production, OptionalLong.empty(), "ann").graph().getVersion())
        .isEqualTo(1);
    PipelineGraph otherModule =
        production.toBuilder()
            .setNodes(
                3, SampleGraphs.sink("index", "plan-1").toBuilder().setModuleId("lucene-sink"))
            .build();
    assertThatThrownBy(() -> admin.create(otherModule, OptionalLong.empty(), "ann"))
        .hasMessageContaining(
            "sink node 'index' names index plan 'plan-1', which module 'opensearch-sink'"
                + " produces, but the node runs module 'lucene-sink'");
  }

  @Test
  void declaringIsIdempotentForTheOwnerAndRefusedForAnyOtherModule() {
    stub.declareIndexPlans(DeclareIndexPlansRequest.newBuilder().addPlans(PLAN).build());
    IndexPlan refreshed = PLAN.toBuilder().setDescription("now with titles").build();
    assertThat(
            stub.declareIndexPlans(
                    DeclareIndexPlansRequest.newBuilder().addPlans(refreshed).build())
                .getPlansList())
        .containsExactly(refreshed);

    IndexPlan theft = PLAN.toBuilder().setModuleId("lucene-sink").setIndexName("mine").build();
    IndexPlan fresh =
        IndexPlan.newBuilder()
            .setPlanId("lucene-1")
            .setModuleId("lucene-sink")
            .setIndexName("l")
            .build();
    assertThat(
            refused(DeclareIndexPlansRequest.newBuilder().addPlans(fresh).addPlans(theft).build()))
        .isEqualTo(
            "plans[1].plan_id: 'plan-1' is already declared by module 'opensearch-sink', not"
                + " 'lucene-sink'; a plan belongs to the module that declared it");
    assertThat(plans.plan("plan-1")).contains(refreshed);
    assertThat(plans.plan("lucene-1")).as("all or none").isEmpty();
    assertThat(stub.listIndexPlans(ListIndexPlansRequest.getDefaultInstance()).getPlansList())
        .containsExactly(refreshed);
  }

  @Test
  void badDeclarationsAreRefusedNamingTheField() {
    assertThat(refused(DeclareIndexPlansRequest.getDefaultInstance()))
        .isEqualTo("plans: must name at least one index plan");
    assertThat(refused(one(PLAN.toBuilder().setPlanId(" ").build())))
        .isEqualTo("plans[0].plan_id: must be non-blank");
    assertThat(refused(one(PLAN.toBuilder().clearModuleId().build())))
        .isEqualTo("plans[0].module_id: must be non-blank");
    assertThat(refused(one(PLAN.toBuilder().clearIndexName().build())))
        .isEqualTo("plans[0].index_name: must be non-blank");
    assertThat(refused(one(PLAN.toBuilder().setVectorDimensions(-1).build())))
        .isEqualTo("plans[0].vector_dimensions: must be 0 or more, was -1");
    assertThat(
            refused(DeclareIndexPlansRequest.newBuilder().addAllPlans(List.of(PLAN, PLAN)).build()))
        .isEqualTo("plans[1].plan_id: 'plan-1' appears twice in one declaration");
    assertThat(plans.list("")).isEmpty();
  }

  private static DeclareIndexPlansRequest one(IndexPlan plan) {
    return DeclareIndexPlansRequest.newBuilder().addPlans(plan).build();
  }

  private String refused(DeclareIndexPlansRequest request) {
    try {
      stub.declareIndexPlans(request);
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      return e.getStatus().getDescription();
    }
    throw new AssertionError("declaration accepted");
  }
}
