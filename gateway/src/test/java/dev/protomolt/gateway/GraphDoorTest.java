package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.KafkaGraphEventPublisher;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.localstack.cloud.LocalDynamoDb;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.engine.v1.CreateGraphRequest;
import dev.protomolt.proto.engine.v1.DraftRef;
import dev.protomolt.proto.engine.v1.GraphVersionResponse;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.engine.v1.SaveDraftRequest;
import dev.protomolt.proto.engine.v1.SubscribeToGraphUpdatesRequest;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.testsupport.Eventually;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The gateway's graph door as every environment deploys it, configured only from the task's
 * variables: drafts in a real DynamoDB table (dynalite), create-and-activate on the local Step
 * Functions runtime, and subscriptions fed from graph-updates on the in-process broker, all over a
 * real socket.
 */
class GraphDoorTest {

  static final String TABLE = "protomolt-test-graph-drafts";
  static final String ROLE = "arn:aws:iam::000000000000:role/protomolt-test-execution";
  static final String FUNCTION = "arn:aws:lambda:us-east-1:000000000000:function:protomolt-test-";

  @TempDir static Path data;

  static StoreHarness store;
  static LocalKafka kafka;
  static LocalDynamoDb dynalite;
  static LocalStepFunctions stepFunctions;
  static SfnClient sfn;
  static DynamoDbClient dynamo;
  static GatewayMain gateway;
  static ManagedChannel channel;
  static LocalCallers callers;

  @BeforeAll
  static void start() throws Exception {
    store = StoreHarness.start();
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    dynalite = LocalDynamoDb.start(data.resolve("dynamodb"), 0);
    // The runtime keeps its tables beside the ledger's, as on the local cloud (own history).
    stepFunctions =
        LocalStepFunctions.start(
            0, store.postgres.dataSource(), (fn, payload) -> "{}", Clock.system());
    StaticCredentialsProvider keys =
        StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
    sfn =
        SfnClient.builder()
            .endpointOverride(stepFunctions.endpoint())
            .region(Region.US_EAST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(keys)
            .build();
    dynamo =
        DynamoDbClient.builder()
            .endpointOverride(dynalite.endpoint())
            .region(Region.US_EAST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(keys)
            .build();
    // What the stack deploys before the gateway starts: the drafts table and the topics.
    DynamoDbDraftStore.createTable(dynamo, TABLE);
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(new NewTopic(PlatformTopic.GRAPH_UPDATES.topicName(), 2, (short) 1)))
          .all()
          .get();
    }
    // The sample graph's datasource belongs to its account, as an account event would record.
    new PostgresDatasourceBindings(store.postgres.dataSource()).bind("ds-1", "acme");
    // The gateway signs with the default chain; the local servers accept any key (decision 0953).
    if (System.getProperty("aws.accessKeyId") == null
        && System.getenv("AWS_ACCESS_KEY_ID") == null) {
      System.setProperty("aws.accessKeyId", "local");
      System.setProperty("aws.secretAccessKey", "local");
    }
    callers = new LocalCallers();
    gateway = GatewayMain.start(GatewayConfig.from(environment()));
    // The graph door is an operator door: called as an operator of every account (decision 1741).
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", gateway.port())
            .usePlaintext()
            .intercept(callers.credentials("platform-operator").interceptor())
            .build();
  }

  /** The variables the stack gives the gateway's task, pointed at the local servers. */
  static Map<String, String> environment() throws Exception {
    String jdbcUrl;
    try (Connection c = store.postgres.dataSource().getConnection()) {
      jdbcUrl = c.getMetaData().getURL();
    }
    Map<String, String> env = new HashMap<>(callers.gatewaySettings());
    env.put("PROTOMOLT_ENV", "test");
    env.put("AWS_REGION", "us-east-1");
    env.put("PROTOMOLT_GATEWAY_PORT", "0");
    env.put("PROTOMOLT_GATEWAY_MODULES", "parser");
    env.put("PROTOMOLT_KAFKA_BOOTSTRAP", kafka.bootstrapServers());
    env.put("PROTOMOLT_JDBC_URL", jdbcUrl);
    env.put("PROTOMOLT_JDBC_USER", "postgres");
    env.put("PROTOMOLT_SFN_ENDPOINT", stepFunctions.endpoint().toString());
    env.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", store.platform.endpoint().toString());
    env.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
    env.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", "platform-key");
    env.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", "platform-secret");
    env.put("PROTOMOLT_DRAFTS_TABLE", TABLE);
    env.put("AWS_ENDPOINT_URL_DYNAMODB", dynalite.endpoint().toString());
    env.put("PROTOMOLT_EXECUTION_ROLE_ARN", ROLE);
    env.put("PROTOMOLT_PREPARE_FUNCTION_ARN", FUNCTION + "prepare:live");
    env.put("PROTOMOLT_DISPATCH_FUNCTION_ARN", FUNCTION + "dispatch:live");
    env.put("PROTOMOLT_COMPLETE_FUNCTION_ARN", FUNCTION + "complete:live");
    env.put("PROTOMOLT_DLQ_FUNCTION_ARN", FUNCTION + "dlq:live");
    return env;
  }

  @AfterAll
  static void stop() throws Exception {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (gateway != null) {
      gateway.close();
    }
    for (AutoCloseable c :
        new AutoCloseable[] {dynamo, sfn, stepFunctions, dynalite, kafka, store, callers}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  void draftsAreSavedReadAndDeletedInTheDeployedTable() {
    var graphs = PipelineGraphServiceGrpc.newBlockingStub(channel);
    PipelineGraph graph = SampleGraphs.linear("drafted", 0);
    GraphDraft saved =
        graphs.saveDraft(
            SaveDraftRequest.newBuilder()
                .setClusterId("c1")
                .setGraphId("drafted")
                .setUserId("ann")
                .setGraph(graph)
                .build());
    assertThat(saved.getDraftId()).isEqualTo("draft:c1:drafted:ann");
    assertThat(saved.getValidation().getContentHash()).isNotEmpty();

    DraftRef ref =
        DraftRef.newBuilder().setClusterId("c1").setGraphId("drafted").setUserId("ann").build();
    assertThat(graphs.getDraft(ref).getGraph()).isEqualTo(graph);
    // The item sits in the table the stack names, where any other gateway task reads it too.
    assertThat(new DynamoDbDraftStore(dynamo, TABLE).get("draft:c1:drafted:ann", Instant.now()))
        .hasValueSatisfying(d -> assertThat(d.getGraph()).isEqualTo(graph));

    assertThat(graphs.deleteDraft(ref).getDeleted()).isTrue();
    assertThatThrownBy(() -> graphs.getDraft(ref))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
    // A bad key part is refused naming the field, and nothing is written.
    assertThatThrownBy(
            () ->
                graphs.saveDraft(
                    SaveDraftRequest.newBuilder()
                        .setClusterId("c1")
                        .setGraphId("drafted")
                        .setUserId("a:b")
                        .setGraph(graph)
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains("user_id");
            });
  }

  @Test
  void createAndActivateDeploysTheGraphAndEverySubscriberHearsOfItAndOfOtherProcesses()
      throws Exception {
    List<GraphUpdateEvent> heard = new CopyOnWriteArrayList<>();
    Context.CancellableContext subscription = Context.current().withCancellation();
    subscription.run(
        () ->
            PipelineGraphServiceGrpc.newStub(channel)
                .subscribeToGraphUpdates(
                    SubscribeToGraphUpdatesRequest.getDefaultInstance(), collect(heard)));
    try (KafkaGraphEventPublisher elsewhere =
        KafkaGraphEventPublisher.connect(kafka.bootstrapServers(), Duration.ofSeconds(30))) {
      // The subscription is registered on the server once a probe published by another process
      // (the graph-admin function, say) reaches it; from then on nothing may be missed.
      Eventually.until(
          "a probe from another publisher reaches the subscriber",
          () -> {
            elsewhere.publish(event("probe", GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED));
            return heard.stream().anyMatch(e -> e.getGraphId().equals("probe"));
          });

      GraphVersionResponse activated =
          PipelineGraphServiceGrpc.newBlockingStub(channel)
              .createAndActivateGraph(
                  CreateGraphRequest.newBuilder()
                      .setGraph(SampleGraphs.linear("deployed", 0))
                      .setCreatedBy("ann")
                      .build());
      assertThat(activated.getActive()).isTrue();
      String versionArn = activated.getStateMachineVersionArn();
      assertThat(versionArn).endsWith(":stateMachine:protomolt-test-deployed:1");
      String machine = versionArn.substring(0, versionArn.lastIndexOf(':'));
      assertThat(
              sfn.describeStateMachineAlias(b -> b.stateMachineAliasArn(machine + ":active"))
                  .routingConfiguration())
          .singleElement()
          .satisfies(r -> assertThat(r.stateMachineVersionArn()).isEqualTo(versionArn));
      assertThat(sfn.describeStateMachine(b -> b.stateMachineArn(versionArn)).definition())
          .contains(FUNCTION + "prepare:live");
      assertThat(
              PipelineGraphServiceGrpc.newBlockingStub(channel)
                  .listGraphs(ListGraphsRequest.newBuilder().setClusterId("c1").build())
                  .toString())
          .contains("deployed");

      elsewhere.publish(event("elsewhere", GraphUpdateType.GRAPH_UPDATE_TYPE_DEACTIVATED));
      // graph-updates keeps one graph's events in order, not different graphs' events.
      Eventually.until(
          "the door's activation and the other process's event reach the subscriber",
          () ->
              heard.stream().anyMatch(e -> e.getGraphId().equals("elsewhere"))
                  && heard.stream()
                      .anyMatch(
                          e ->
                              e.getGraphId().equals("deployed")
                                  && e.getType() == GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED));
      assertThat(
              heard.stream()
                  .filter(e -> e.getGraphId().equals("deployed"))
                  .map(GraphUpdateEvent::getType))
          .as("the door's own changes arrive once each, through graph-updates")
          .containsExactly(
              GraphUpdateType.GRAPH_UPDATE_TYPE_CREATED,
              GraphUpdateType.GRAPH_UPDATE_TYPE_ACTIVATED);
    } finally {
      subscription.cancel(null);
    }
  }

  private static GraphUpdateEvent event(String graphId, GraphUpdateType type) {
    return GraphUpdateEvent.newBuilder()
        .setEventId(graphId + "-" + type)
        .setType(type)
        .setGraphId(graphId)
        .setClusterId("c1")
        .setVersion(1)
        .build();
  }

  private static StreamObserver<GraphUpdateEvent> collect(List<GraphUpdateEvent> into) {
    return new StreamObserver<>() {
      @Override
      public void onNext(GraphUpdateEvent value) {
        into.add(value);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    };
  }
}
