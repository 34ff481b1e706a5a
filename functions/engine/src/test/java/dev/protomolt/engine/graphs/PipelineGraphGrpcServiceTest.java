package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.InMemoryDraftStore;
import dev.protomolt.core.graph.InMemoryVersionPins;
import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.engine.v1.CreateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphRequest;
import dev.protomolt.proto.engine.v1.DraftRef;
import dev.protomolt.proto.engine.v1.GetGraphRequest;
import dev.protomolt.proto.engine.v1.GraphVersionRef;
import dev.protomolt.proto.engine.v1.ListGraphVersionsRequest;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc.PipelineGraphServiceBlockingStub;
import dev.protomolt.proto.engine.v1.SaveDraftRequest;
import dev.protomolt.proto.engine.v1.SubscribeToGraphUpdatesRequest;
import dev.protomolt.proto.engine.v1.ValidateGraphRequest;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gRPC door in-process (direct executor, so the test is deterministic) over real PostgreSQL. */
class PipelineGraphGrpcServiceTest {

  private final InMemoryVersionPins pins = new InMemoryVersionPins();
  private final RecordingPublisher kafka = new RecordingPublisher();
  private GraphUpdateFeed feed;
  private GraphAdminService admin;
  private DraftService drafts;
  private Server server;
  private ManagedChannel channel;
  private PipelineGraphServiceBlockingStub stub;

  @BeforeEach
  void start() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
    GraphValidator validator =
        GraphValidator.standard(GraphAdminServiceTest.CEL, GraphAdminServiceTest.TENANCY);
    feed = new GraphUpdateFeed(kafka);
    admin =
        new GraphAdminService(
            new PostgresGraphStore(EmbeddedDatabase.emptied()), pins, feed, validator, clock);
    drafts = new DraftService(new InMemoryDraftStore(), validator, clock);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(new PipelineGraphGrpcService(admin, drafts, feed))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = PipelineGraphServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
    throw new AssertionError("call succeeded");
  }

  @Test
  void lifecycleOverTheWire() {
    var v1 =
        stub.createGraph(
            CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).setCreatedBy("ann").build());
    assertThat(v1.getActive()).isFalse();
    var v2 =
        stub.createAndActivateGraph(
            CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).setExpectedVersion(2).build());
    assertThat(v2.getActive()).isTrue();
    assertThat(
            stub.getGraph(GetGraphRequest.newBuilder().setGraphId("g").build())
                .getGraph()
                .getVersion())
        .isEqualTo(2);

    stub.activateGraph(
        GraphVersionRef.newBuilder().setGraphId("g").setClusterId("c1").setVersion(1).build());
    assertThat(
            stub.listGraphVersions(ListGraphVersionsRequest.newBuilder().setGraphId("g").build())
                .getVersionsList())
        .extracting(s -> s.getVersion() + ":" + s.getActive() + ":" + s.getNodeCount())
        .containsExactly("1:true:4", "2:false:4");
    assertThat(
            stub.listGraphs(ListGraphsRequest.newBuilder().setClusterId("c1").build())
                .getGraphsList())
        .singleElement()
        .extracting(s -> s.getVersion())
        .isEqualTo(1L);

    var off =
        stub.deactivateGraph(
            DeactivateGraphRequest.newBuilder().setGraphId("g").setClusterId("c1").build());
    assertThat(off.getDeactivatedVersion()).isEqualTo(1);
    assertThat(off.getDeactivationEpoch()).isEqualTo(1);
    assertThat(
            stub.deleteGraphVersion(
                    GraphVersionRef.newBuilder()
                        .setGraphId("g")
                        .setClusterId("c1")
                        .setVersion(2)
                        .build())
                .getDeleted())
        .isTrue();
  }

  @Test
  void activationThroughTheDoorDeploysThroughTheAttachedDeployment() {
    List<String> deployed = new CopyOnWriteArrayList<>();
    List<String> pointed = new CopyOnWriteArrayList<>();
    admin.deployThrough(
        new GraphAdminService.Deployment() {
          @Override
          public String deploy(PipelineGraph graph) {
            deployed.add(
                graph.getGraphId() + ":" + graph.getClusterId() + ":" + graph.getVersion());
            return "arn:aws:states:us-east-1:000000000000:stateMachine:g:" + graph.getVersion();
          }

          @Override
          public void pointActive(String versionArn) {
            pointed.add(versionArn);
          }
        });
    var v1 =
        stub.createAndActivateGraph(
            CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).build());
    assertThat(v1.getActive()).isTrue();
    stub.createGraph(CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).build());
    stub.activateGraph(
        GraphVersionRef.newBuilder().setGraphId("g").setClusterId("c1").setVersion(2).build());
    assertThat(deployed).containsExactly("g:c1:1", "g:c1:2");
    // The real deployment records the ARN beside the version before the alias moves; this one
    // records nothing, so only the number of alias moves is meaningful here.
    assertThat(pointed).as("the alias moved once per activation").hasSize(2);
    assertThat(
            code(
                () ->
                    stub.activateGraph(
                        GraphVersionRef.newBuilder()
                            .setGraphId("g")
                            .setClusterId("c1")
                            .setVersion(7)
                            .build())))
        .as("an unknown version keeps its status")
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void failuresMapToTheStatusACallerCanActOn() {
    stub.createAndActivateGraph(CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).build());
    stub.createGraph(CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).build());
    pins.pin("g", 2);
    assertThat(
            code(
                () ->
                    stub.deleteGraphVersion(
                        GraphVersionRef.newBuilder()
                            .setGraphId("g")
                            .setClusterId("c1")
                            .setVersion(2)
                            .build())))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(
            code(
                () ->
                    stub.deleteGraphVersion(
                        GraphVersionRef.newBuilder()
                            .setGraphId("g")
                            .setClusterId("c1")
                            .setVersion(1)
                            .build())))
        .as("active")
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(
            code(
                () ->
                    stub.createGraph(
                        CreateGraphRequest.newBuilder()
                            .setGraph(linear("g", 0))
                            .setExpectedVersion(2)
                            .build())))
        .isEqualTo(Status.Code.ABORTED);
    assertThat(
            code(
                () ->
                    stub.getGraph(
                        GetGraphRequest.newBuilder().setGraphId("g").setVersion(9).build())))
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(
            code(
                () ->
                    stub.activateGraph(
                        GraphVersionRef.newBuilder().setClusterId("c1").setVersion(1).build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThatThrownBy(
            () ->
                stub.createGraph(
                    CreateGraphRequest.newBuilder()
                        .setGraph(linear("g", 0).toBuilder().removeNodes(0))
                        .build()))
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageStartingWith("FAILED_PRECONDITION: graph 'g' fails DESIGN validation")
        .hasMessageContaining("[IntakePresence]");
  }

  @Test
  void validateAndDraftsOverTheWire() {
    var result =
        stub.validateGraph(
            ValidateGraphRequest.newBuilder()
                .setGraph(linear("g", 0).toBuilder().setNodes(3, SampleGraphs.sink("index")))
                .setMode(ValidationMode.VALIDATION_MODE_PRODUCTION)
                .build());
    assertThat(result.getValid()).isFalse();
    assertThat(result.getViolationsList())
        .extracting(v -> v.getRule())
        .containsExactly("SinkRequiresPlans");
    assertThat(
            code(
                () ->
                    stub.validateGraph(
                        ValidateGraphRequest.newBuilder().setGraph(linear("g", 0)).build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);

    var draft =
        stub.saveDraft(
            SaveDraftRequest.newBuilder()
                .setClusterId("c1")
                .setGraphId("g")
                .setUserId("ann")
                .setGraph(linear("g", 0))
                .setBaseVersion(0)
                .build());
    assertThat(draft.hasBaseVersion()).isTrue();
    DraftRef ref =
        DraftRef.newBuilder().setClusterId("c1").setGraphId("g").setUserId("ann").build();
    assertThat(stub.getDraft(ref).getDraftId()).isEqualTo("draft:c1:g:ann");
    assertThat(stub.deleteDraft(ref).getDeleted()).isTrue();
    assertThat(code(() -> stub.getDraft(ref))).isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void subscribersGetOnlyTheEventsTheirFilterAsksFor() {
    List<GraphUpdateEvent> seen = new CopyOnWriteArrayList<>();
    StreamObserver<GraphUpdateEvent> observer =
        new StreamObserver<>() {
          @Override
          public void onNext(GraphUpdateEvent value) {
            seen.add(value);
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {}
        };
    var async = PipelineGraphServiceGrpc.newStub(channel);
    async.subscribeToGraphUpdates(
        SubscribeToGraphUpdatesRequest.newBuilder()
            .setGraphId("g")
            .addTypes(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED)
            .build(),
        observer);
    assertThat(feed.subscriberCount()).isEqualTo(1);

    stub.createAndActivateGraph(CreateGraphRequest.newBuilder().setGraph(linear("g", 0)).build());
    stub.createAndActivateGraph(
        CreateGraphRequest.newBuilder().setGraph(linear("other", 0)).build());
    stub.deactivateGraph(
        DeactivateGraphRequest.newBuilder().setGraphId("g").setClusterId("c1").build());

    assertThat(seen)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getGraphId()).isEqualTo("g");
              assertThat(e.getType()).isEqualTo(GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED);
              assertThat(e.getGraph().getNodesCount()).isEqualTo(4);
            });
    assertThat(kafka.events).as("every event still went to graph-updates").hasSize(5);
  }
}
