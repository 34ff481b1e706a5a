package dev.protomolt.gateway.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.localstack.cloud.LocalDynamoDb;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.engine.v1.ProbeHopRequest;
import dev.protomolt.proto.engine.v1.ProbeResult;
import dev.protomolt.proto.engine.v1.ProbeStep;
import dev.protomolt.repository.fixtures.S3ProxyFixture;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
 * Each probe against the real dependency it exercises (Kafka, S3Proxy, dynalite, the local Step
 * Functions runtime, PostgreSQL), and against that dependency stopped.
 */
class DiagnosticsProbesTest {

  static final String ACCOUNT = "acme";
  static final String GRAPH = "probe-graph";
  static final String CLUSTER = "c1";

  static StoreHarness h;
  static LocalKafka kafka;
  static LocalDynamoDb dynalite;
  static DynamoDbClient dynamo;
  static LocalStepFunctions runtime;
  static SfnClient sfn;
  static PostgresGraphStore graphs;
  static String versionArn;
  static SfnStateMachines machines;

  @BeforeAll
  static void start(@TempDir Path data) throws Exception {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    dynalite = LocalDynamoDb.start(Files.createDirectories(data.resolve("dynalite")), 0);
    dynamo =
        DynamoDbClient.builder()
            .endpointOverride(dynalite.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    DynamoDbDraftStore.createTable(dynamo, "probe-drafts");
    runtime =
        LocalStepFunctions.start(0, h.postgres.dataSource(), (fn, payload) -> "{}", Clock.system());
    sfn =
        SfnClient.builder()
            .endpointOverride(runtime.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    graphs = new PostgresGraphStore(h.postgres.dataSource());
    StoredGraph stored = graphs.create(graph(), OptionalLong.empty(), "probe-test", Instant.now());
    machines = new SfnStateMachines(sfn, "arn:aws:iam::000000000000:role/probe");
    String definition = "{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Succeed\"}}}";
    String machine = machines.create("local-" + GRAPH, definition);
    versionArn = machines.updateAndPublish(machine, definition, "version 1");
    graphs.recordStateMachineVersion(GRAPH, stored.graph().getVersion(), versionArn);
    graphs.activate(GRAPH, CLUSTER, stored.graph().getVersion(), 0);
    machines.pointAlias(machine, "active", versionArn);
  }

  @AfterAll
  static void stop() throws Exception {
    sfn.close();
    runtime.close();
    dynamo.close();
    dynalite.close();
    kafka.close();
    h.close();
  }

  /** parser (runs only on English documents) -> sink when titled, else -> archive. */
  static PipelineGraph graph() {
    GraphNode parser =
        GraphNode.newBuilder()
            .setNodeId("parser")
            .setName("parser")
            .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
            .setModuleId("parser")
            .build();
    GraphNode strict =
        GraphNode.newBuilder()
            .setNodeId("strict")
            .setName("strict")
            .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
            .setModuleId("parser")
            .addFilterConditions(
                FilterCondition.newBuilder()
                    .setCondition("document.search_metadata.language == 'en'")
                    .setAction(FilterAction.FILTER_ACTION_SKIP)
                    .setDescription("English only"))
            .build();
    GraphNode sink =
        GraphNode.newBuilder()
            .setNodeId("sink")
            .setName("sink")
            .setNodeType(NodeType.NODE_TYPE_SINK)
            .setModuleId("index-sink")
            .build();
    return PipelineGraph.newBuilder()
        .setGraphId(GRAPH)
        .setClusterId(CLUSTER)
        .setName(GRAPH)
        .setAccountId(ACCOUNT)
        .addAllNodes(List.of(parser, strict, sink))
        .addEdges(edge("to-sink", "parser", "sink", "document.search_metadata.title != ''"))
        .addEdges(edge("to-strict", "parser", "strict", "document.search_metadata.title == ''"))
        .addEdges(edge("strict-to-sink", "strict", "sink", ""))
        .build();
  }

  static GraphEdge edge(String id, String from, String to, String condition) {
    return GraphEdge.newBuilder()
        .setEdgeId(id)
        .setFromNodeId(from)
        .setToNodeId(to)
        .setCondition(condition)
        .setTransportType(TransportType.TRANSPORT_TYPE_PERSIST)
        .build();
  }

  static List<String> steps(ProbeResult r) {
    return r.getStepsList().stream().map(s -> s.getName() + (s.getOk() ? "" : " FAILED")).toList();
  }

  @Test
  void kafkaProbeReadsItsCanaryBackFromTheDiagnosticsTopic() {
    ProbeResult r =
        new KafkaCanaryProbe(kafka.bootstrapServers(), Map.of(), Duration.ofSeconds(20)).probe("");
    assertThat(r.getError()).isEmpty();
    assertThat(r.getOk()).isTrue();
    assertThat(steps(r)).containsExactly("produce", "consume");
    assertThat(r.getSteps(0).getDetail()).contains(PlatformTopic.DIAGNOSTICS.topicName());
  }

  @Test
  void kafkaProbeNamesTheBrokerWhenItIsStopped(@TempDir Path data) {
    String bootstrap;
    try (LocalKafka stopped = LocalKafka.start(data, 0, 0)) {
      bootstrap = stopped.bootstrapServers();
    }
    // Bounded by the probe's own timeout: the produce step gives up after it, no sleep involved.
    ProbeResult r = new KafkaCanaryProbe(bootstrap, Map.of(), Duration.ofSeconds(2)).probe("");
    assertThat(r.getOk()).isFalse();
    assertThat(steps(r)).containsExactly("produce FAILED");
    assertThat(r.getError()).startsWith("Kafka broker at " + bootstrap + ": produce failed");
  }

  @Test
  void claimCheckStagesHydratesAndPurgesACanaryOnTheAccountsPipelineDrive() {
    ProbeResult r = new ClaimCheckProbe(h.drives, new S3BlobStore(h.clients)).probe(ACCOUNT);
    assertThat(r.getError()).isEmpty();
    assertThat(steps(r)).containsExactly("resolve drive", "stage", "hydrate", "purge");
    assertThat(r.getSteps(0).getDetail()).contains("acme:pipeline", "platform");
    // Nothing is left behind: the canary's prefix is empty again.
    assertThat(
            h.platform
                .adminClient()
                .listObjectsV2(
                    b ->
                        b.bucket(StoreHarness.PLATFORM_BUCKET).prefix("acme/pipeline/diagnostics/"))
                .contents())
        .isEmpty();
  }

  @Test
  void claimCheckNamesS3WhenTheObjectStoreIsStopped() {
    S3ProxyFixture s3 = S3ProxyFixture.start("platform-key", "platform-secret");
    s3.createBucket(StoreHarness.PLATFORM_BUCKET);
    s3.close();
    try (S3Clients clients = new S3Clients(Map.of("platform", s3.settings()), List.of())) {
      ProbeResult r = new ClaimCheckProbe(h.drives, new S3BlobStore(clients)).probe(ACCOUNT);
      assertThat(r.getOk()).isFalse();
      assertThat(steps(r)).containsExactly("resolve drive", "stage FAILED");
      assertThat(r.getError())
          .startsWith("S3 bucket " + StoreHarness.PLATFORM_BUCKET + " (credentials 'platform')")
          .contains("stage failed");
    }
  }

  @Test
  void claimCheckRefusesAMissingOrUnknownAccountNamingTheField() {
    ClaimCheckProbe probe = new ClaimCheckProbe(h.drives, new S3BlobStore(h.clients));
    assertThat(probe.probe("").getError()).startsWith("account_id: required");
    ProbeResult unknown = probe.probe("nobody");
    assertThat(unknown.getOk()).isFalse();
    assertThat(unknown.getError()).contains("account_id: account 'nobody' has no pipeline drive");
  }

  @Test
  void draftsProbeWritesReadsAndDeletesACanaryDraft() {
    ProbeResult r =
        new DraftsProbe(
                Optional.of(new DynamoDbDraftStore(dynamo, "probe-drafts")),
                "probe-drafts",
                java.time.Clock.systemUTC())
            .probe(CLUSTER);
    assertThat(r.getError()).isEmpty();
    assertThat(steps(r)).containsExactly("write", "read", "delete");
  }

  @Test
  void draftsProbeNamesTheTableItCannotReachAndTheSettingWhenNoneIsConfigured() {
    ProbeResult missing =
        new DraftsProbe(
                Optional.of(new DynamoDbDraftStore(dynamo, "no-such-table")),
                "no-such-table",
                java.time.Clock.systemUTC())
            .probe(CLUSTER);
    assertThat(missing.getOk()).isFalse();
    assertThat(missing.getError()).startsWith("DynamoDB table no-such-table: write failed");
    ProbeResult unconfigured =
        new DraftsProbe(Optional.empty(), "(none)", java.time.Clock.systemUTC()).probe(CLUSTER);
    assertThat(unconfigured.getError()).contains("PROTOMOLT_DRAFTS_TABLE");
  }

  @Test
  void hopProbeReportsEachDecisionOfALiveNodeAndStartsNothing() {
    HopProbe probe = new HopProbe(graphs, PipelineCelEnvironment.create());
    ProbeResult r =
        probe.probe(ProbeHopRequest.newBuilder().setGraphId(GRAPH).setNodeId("parser").build());
    assertThat(r.getError()).isEmpty();
    assertThat(steps(r)).containsExactly("admission", "hydration", "filter", "mappings", "routing");
    assertThat(r.getSteps(0).getDetail()).contains("version 1 (active)");
    assertThat(r.getSteps(2).getDetail()).startsWith("RUN");
    // The synthetic document has a title, so the conditional edge to the sink is the one taken.
    assertThat(r.getSteps(4).getDetail()).isEqualTo("routed to [sink (PERSIST)]");

    ProbeResult skipped =
        probe.probe(
            ProbeHopRequest.newBuilder()
                .setGraphId(GRAPH)
                .setVersion(1)
                .setNodeId("strict")
                .build());
    assertThat(skipped.getSteps(2).getDetail()).isEqualTo("SKIP: condition #0 (English only)");
    assertThat(skipped.getSteps(3).getDetail()).startsWith("not applied");

    // A dry run: no execution was started on the graph's state machine.
    String machine = versionArn.substring(0, versionArn.lastIndexOf(':'));
    assertThat(sfn.listExecutions(b -> b.stateMachineArn(machine)).executions()).isEmpty();
  }

  @Test
  void hopProbeRefusesAnUnknownNodeVersionOrGraphNamingTheField() {
    HopProbe probe = new HopProbe(graphs, PipelineCelEnvironment.create());
    assertThat(
            probe
                .probe(ProbeHopRequest.newBuilder().setGraphId(GRAPH).setNodeId("nope").build())
                .getError())
        .contains("node_id: graph 'probe-graph' version 1 has no node 'nope'");
    assertThat(
            probe
                .probe(
                    ProbeHopRequest.newBuilder()
                        .setGraphId(GRAPH)
                        .setVersion(9)
                        .setNodeId("parser")
                        .build())
                .getError())
        .contains("version: graph 'probe-graph' has no version 9");
    assertThat(probe.probe(ProbeHopRequest.newBuilder().setNodeId("parser").build()).getError())
        .isEqualTo("graph_id: required");
    assertThat(probe.probe(ProbeHopRequest.newBuilder().setGraphId(GRAPH).build()).getError())
        .isEqualTo("node_id: required");
  }

  @Test
  void stateMachineProbeChecksTheActiveAliasRoutesToTheRecordedVersion() {
    StateMachineProbe probe = new StateMachineProbe(graphs, sfn);
    ProbeResult r = probe.probe(GRAPH, CLUSTER);
    assertThat(r.getError()).isEmpty();
    assertThat(steps(r))
        .containsExactly("read active version", "describe alias", "describe version");
    assertThat(r.getSteps(1).getDetail()).isEqualTo("routes 100% to " + versionArn);

    ProbeResult wrongCluster = probe.probe(GRAPH, "other");
    assertThat(wrongCluster.getError()).contains("cluster_id: graph 'probe-graph' belongs to");
    assertThat(probe.probe("no-graph", "").getError())
        .contains("graph_id: graph 'no-graph' has no active version");
  }

  @Test
  void stateMachineProbeFailsWhenTheAliasPointsElsewhere() {
    String machine =
        machines.create(
            "local-drifted", "{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Succeed\"}}}");
    String v1 =
        machines.updateAndPublish(
            machine, "{\"StartAt\":\"A\",\"States\":{\"A\":{\"Type\":\"Succeed\"}}}", "v1");
    String v2 =
        machines.updateAndPublish(
            machine, "{\"StartAt\":\"B\",\"States\":{\"B\":{\"Type\":\"Succeed\"}}}", "v2");
    PipelineGraph drifted = graph().toBuilder().setGraphId("drifted").build();
    StoredGraph stored = graphs.create(drifted, OptionalLong.empty(), "probe-test", Instant.now());
    graphs.recordStateMachineVersion("drifted", stored.graph().getVersion(), v1);
    graphs.activate("drifted", CLUSTER, stored.graph().getVersion(), 0);
    // Someone moved the alias by hand: the ledger says v1, Step Functions routes to v2.
    machines.pointAlias(machine, "active", v2);
    ProbeResult r = new StateMachineProbe(graphs, sfn).probe("drifted", CLUSTER);
    assertThat(r.getOk()).isFalse();
    assertThat(steps(r)).containsExactly("read active version", "describe alias FAILED");
    assertThat(r.getError())
        .startsWith("Step Functions alias " + machine + ":active")
        .contains(v2, "not only to the recorded " + v1);
    assertThat(r.getStepsList()).extracting(ProbeStep::getOk).containsExactly(true, false);
  }
}
