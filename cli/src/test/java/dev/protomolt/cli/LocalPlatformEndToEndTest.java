package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.PlaintextScan;
import dev.protomolt.localstack.otlp.LocalTraces;
import dev.protomolt.module.samples.sink.SearchHit;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The one happy path of the whole pipeline over real sockets in one JVM: a text file put into the
 * intake bucket with the AWS SDK is noticed by the S3 notification, admitted to the demo graph,
 * carried by Step Functions through the engine's hop functions, worked by the four sample modules
 * through the gateway, and ends indexed in the sink's Lucene index and stored at the sink's
 * address, bit for bit. The other end-to-end classes build on this path without proving it again.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LocalPlatformEndToEndTest {

  static final String ACCOUNT = "keepers";
  static final String DATASOURCE = "uploads";
  static final String GRAPH = "happy-path";

  @Test
  void anUploadedDocumentIsParsedChunkedEmbeddedIndexedAndStored(SharedPlatform shared)
      throws Exception {
    LocalPlatform platform = shared.platform();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
    PipelineGraph graph =
        DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId(GRAPH)
            .setName(GRAPH)
            .build();
    long version = platform.applyAndActivate(graph);
    assertThat(version).isEqualTo(1);

    byte[] text =
        ("Lighthouse keepers\n\nThe lamp at Skerryvore was lit at dusk and trimmed"
                + " twice before dawn, while the keepers logged every passing ship.\n")
            .getBytes(StandardCharsets.UTF_8);
    try (S3Client s3 = shared.s3()) {
      s3.putObject(
          b ->
              b.bucket(LocalPlatform.INTAKE_BUCKET)
                  .key(ACCOUNT + "/" + DATASOURCE + "/notes/lighthouse.txt")
                  .contentType("text/plain"),
          RequestBody.fromBytes(text));
    }

    LocalPlatform.Admission admitted =
        Eventually.value(
            "the upload admitted to the graph",
            () ->
                platform.admissions(ACCOUNT).stream()
                    .filter(a -> a.graphId().equals(GRAPH) && !a.executionArn().isEmpty())
                    .findFirst());
    assertThat(admitted.outcome()).isEqualTo("STARTED");
    assertThat(admitted.graphVersion()).isEqualTo(version);
    DescribeExecutionResponse done =
        StepFunctionsExecutions.awaitClosed(platform.stepFunctions(), admitted.executionArn());
    assertThat(done.status())
        .as("execution %s: %s %s", done.executionArn(), done.error(), done.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(new ObjectMapper().readTree(done.output()).path("disposition").asText())
        .isEqualTo("SINK_REACHED");

    List<SearchHit> hits = platform.indexSearch().text("Skerryvore", 5);
    assertThat(hits).extracting(SearchHit::docId).contains(admitted.docId());

    // The gateway's backlog signal, which the stack scales on, reaches the local cloud's record of
    // metrics (not the console): one total per environment and one share per module service.
    Eventually.until(
        "the gateway emitted ModuleTopicBacklog",
        () -> !platform.metrics().records(PlatformMetric.MODULE_TOPIC_BACKLOG).isEmpty());
    assertThat(platform.metrics().records(PlatformMetric.MODULE_TOPIC_BACKLOG))
        .extracting(r -> r.dimensions().get(PlatformMetric.MODULE_SERVICE_DIMENSION))
        .contains("parser", "index-sink");

    PipeDoc atSink = stored(platform, admitted.docId(), DemoGraph.INDEX);
    assertThat(atSink.getSearchMetadata().getBody()).contains("The lamp at Skerryvore was lit");
    assertThat(atSink.getSearchMetadata().getSemanticResultsList())
        .as("the chunker's and the embedder's work reached the sink")
        .isNotEmpty();
    assertThat(
            sha256(
                stored(platform, admitted.docId(), DemoGraph.PARSE)
                    .getBlobBag()
                    .getBlob()
                    .getData()
                    .toByteArray()))
        .as("the uploaded bytes, bit for bit, as the parser's state keeps them")
        .isEqualTo(sha256(text));
    // One trace for the document, from intake through every hop's functions, the gateway's serve
    // and ack, each module and the store's saves, as the local collector keeps it (decision 1793).
    List<TraceSpan> trace =
        Eventually.value(
            "the document's trace with every module's span and every parent it names",
            () -> {
              List<TraceSpan> spans =
                  LocalTraces.in(platform.endpoints().dataDir()).traceOf(admitted.docId());
              Set<String> services =
                  spans.stream().map(TraceSpan::service).collect(Collectors.toSet());
              // Exporters flush in batches, so a child can arrive before its parent (intake's
              // root span ends last): wait until every parent named is in, too.
              Set<String> received =
                  spans.stream().map(TraceSpan::spanId).collect(Collectors.toSet());
              boolean parentsIn =
                  spans.stream()
                      .map(TraceSpan::parentSpanId)
                      .allMatch(parent -> parent.isEmpty() || received.contains(parent));
              return parentsIn
                      && services.containsAll(
                          List.of("parser", "chunker", "embedder", "index-sink", "gateway"))
                  ? Optional.of(spans)
                  : Optional.empty();
            });
    assertThat(trace).extracting(TraceSpan::traceId).containsOnly(trace.getFirst().traceId());
    assertThat(trace)
        .extracting(TraceSpan::name)
        .contains(
            "gateway.serve", "gateway.ack", "parser.process", "index-sink.process", "store.save");
    // Nodes without a filter are prepared by the Complete before them, in its own span (1832).
    assertThat(trace).extracting(TraceSpan::name).contains("prepare");
    // Every Complete of the demo graph hands the next hop on itself (decisions 1842, 1843): the
    // dispatch function is not invoked at all.
    assertThat(trace)
        .extracting(TraceSpan::service)
        .contains("intake", "complete")
        .doesNotContain("dispatch");
    Set<String> ids = trace.stream().map(TraceSpan::spanId).collect(Collectors.toSet());
    assertThat(trace)
        .as("every span but the root has its parent in the trace")
        .filteredOn(span -> !span.parentSpanId().isEmpty())
        .allSatisfy(span -> assertThat(ids).contains(span.parentSpanId()));

    // The deployed settlement function (indexing-receipts) applies the graph's post-parse policy
    // once the sink's receipt is in: the indexed state keeps no copy of the original bytes.
    Eventually.until(
        "settlement dropped the indexed state's BLOBS",
        () -> !stored(platform, admitted.docId(), DemoGraph.INDEX).getBlobBag().hasBlob());
  }

  /**
   * A datasource declared right-to-be-forgotten when its account is provisioned (decision 1512):
   * an upload carrying no metadata walks the demo graph as a declared one does, and leaves no
   * plaintext in S3, PostgreSQL, Kafka, DynamoDB or any execution's history.
   */
  @Test
  void anUploadWithoutMetadataInAForgettableDatasourceLeavesNoPlaintext(SharedPlatform shared)
      throws Exception {
    // The shared platform holds what every earlier class wrote: the scan reads only what was
    // written since this test began, where its made-up marker can be.
    Instant began = Instant.now();
    LocalPlatform platform = shared.platform();
    String account = "wide-forgetters";
    String datasource = "forget-all";
    platform.provisionAccount(account, List.of(datasource), java.util.Set.of(datasource));
    platform.applyAndActivate(
        DemoGraph.of(account, datasource, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId("forgetting-wide")
            .setName("forgetting-wide")
            .build());
    String forget = "marmotcassowary3e19a4f0";
    try (S3Client s3 = shared.s3()) {
      s3.putObject(
          b ->
              b.bucket(LocalPlatform.INTAKE_BUCKET)
                  .key(account + "/" + datasource + "/bare/me.txt")
                  .contentType("text/plain"),
          RequestBody.fromString("Forget this sentence too: " + forget + " was here.\n"));
    }
    LocalPlatform.Admission admitted =
        Eventually.value(
            "the upload admitted",
            () ->
                platform.admissions(account).stream()
                    .filter(a -> !a.executionArn().isEmpty())
                    .findFirst());
    DescribeExecutionResponse done =
        StepFunctionsExecutions.awaitClosed(platform.stepFunctions(), admitted.executionArn());
    assertThat(done.status())
        .as("execution %s: %s %s", done.executionArn(), done.error(), done.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(new ObjectMapper().readTree(done.output()).path("disposition").asText())
        .isEqualTo("SINK_REACHED");
    assertThat(platform.indexSearch().text(forget, 5)).as("the sink indexed the body").isNotEmpty();
    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Client s3 = shared.s3();
        DynamoDbClient dynamo =
            DynamoDbClient.builder()
                .endpointOverride(ep.dynamoDb())
                .region(Region.of(ep.region()))
                .credentialsProvider(
                    StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
      assertThat(
              new PlaintextScan(
                      platform.database(),
                      ep.kafkaBootstrapServers(),
                      s3,
                      dynamo,
                      platform.stepFunctions())
                  .writtenSince(began)
                  .find(forget))
          .isEmpty();
    }
  }

  /**
   * A right-to-be-forgotten upload walks the demo graph with every module behind the gateway: the
   * gateway opens each sealed body for its module and seals the module's answer again (decision
   * 1509), so the sink indexes the plaintext while S3, PostgreSQL, Kafka, DynamoDB and every
   * execution's history hold none of it once the walk ends; the same scan finds an ordinary
   * upload's marker in the intake bucket and the store's parts.
   */
  @Test
  void aForgettableUploadIsWorkedByEveryModuleThroughTheGatewayAndLeavesNoPlaintext(
      SharedPlatform shared) throws Exception {
    Instant began = Instant.now();
    LocalPlatform platform = shared.platform();
    String account = "forgetters";
    String datasource = "forgettable";
    platform.provisionAccount(account, datasource);
    PipelineGraph graph =
        DemoGraph.of(account, datasource, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId("forgetting")
            .setName("forgetting")
            .build();
    platform.applyAndActivate(graph);
    // One token each for the index: the sink finding it proves the module read the plaintext.
    String forget = "zephyrquokka7c41e9d2";
    String control = "kestrelwombat5b2d88a1";
    try (S3Client s3 = shared.s3()) {
      s3.putObject(
          b ->
              b.bucket(LocalPlatform.INTAKE_BUCKET)
                  .key(account + "/" + datasource + "/forget/me.txt")
                  .contentType("text/plain")
                  .metadata(Map.of("protomolt-rtbf", "true")),
          RequestBody.fromString("Forget this sentence: " + forget + " was here.\n"));
      s3.putObject(
          b ->
              b.bucket(LocalPlatform.INTAKE_BUCKET)
                  .key(account + "/" + datasource + "/keep/me.txt")
                  .contentType("text/plain"),
          RequestBody.fromString("Keep this sentence: " + control + " stays.\n"));
    }
    List<LocalPlatform.Admission> admitted =
        Eventually.value(
            "both uploads admitted",
            () -> {
              List<LocalPlatform.Admission> started =
                  platform.admissions(account).stream()
                      .filter(a -> !a.executionArn().isEmpty())
                      .toList();
              return started.size() == 2 ? Optional.of(started) : Optional.empty();
            });
    for (LocalPlatform.Admission a : admitted) {
      DescribeExecutionResponse done =
          StepFunctionsExecutions.awaitClosed(platform.stepFunctions(), a.executionArn());
      assertThat(done.status())
          .as("execution %s: %s %s", done.executionArn(), done.error(), done.cause())
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(new ObjectMapper().readTree(done.output()).path("disposition").asText())
          .isEqualTo("SINK_REACHED");
    }
    assertThat(platform.indexSearch().text(forget, 5)).as("the sink indexed the body").isNotEmpty();

    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Client s3 = shared.s3();
        DynamoDbClient dynamo =
            DynamoDbClient.builder()
                .endpointOverride(ep.dynamoDb())
                .region(Region.of(ep.region()))
                .credentialsProvider(
                    StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
      PlaintextScan scan =
          new PlaintextScan(
                  platform.database(),
                  ep.kafkaBootstrapServers(),
                  s3,
                  dynamo,
                  platform.stepFunctions())
              .writtenSince(began);
      assertThat(scan.find(forget)).isEmpty();
      // The demo graph stores an ordinary document at its PERSIST hops, so its text is in the
      // upload and the store's parts (HandlersOnLocalCloudTest shows the scan reads histories).
      assertThat(scan.find(control))
          .as("the scan sees an ordinary upload's plaintext where it keeps it")
          .contains(
              "s3:"
                  + LocalPlatform.INTAKE_BUCKET
                  + "/"
                  + account
                  + "/"
                  + datasource
                  + "/keep/me.txt")
          .anyMatch(
              place -> place.startsWith("s3:" + LocalPlatform.STORE_BUCKET + "/" + account + "/"));
    }
  }

  private static PipeDoc stored(LocalPlatform platform, String docId, String node) {
    return platform
        .store()
        .get(
            GetPipeDocRequest.newBuilder()
                .setDocumentRef(
                    DocumentReference.newBuilder()
                        .setDocId(docId)
                        .setGraphAddressId(node)
                        .setAccountId(ACCOUNT)
                        .setGraphId(GRAPH))
                .build())
        .getPipedoc();
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
