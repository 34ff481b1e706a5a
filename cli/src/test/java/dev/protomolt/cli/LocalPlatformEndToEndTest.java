package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.tracing.TraceSpan;
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
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
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
            "the document's trace with every module's span",
            () -> {
              List<TraceSpan> spans =
                  LocalTraces.in(platform.endpoints().dataDir()).traceOf(admitted.docId());
              Set<String> services =
                  spans.stream().map(TraceSpan::service).collect(Collectors.toSet());
              return services.containsAll(
                      List.of("parser", "chunker", "embedder", "index-sink", "gateway"))
                  ? Optional.of(spans)
                  : Optional.empty();
            });
    assertThat(trace).extracting(TraceSpan::traceId).containsOnly(trace.getFirst().traceId());
    assertThat(trace)
        .extracting(TraceSpan::name)
        .contains(
            "gateway.serve", "gateway.ack", "parser.process", "index-sink.process", "store.save");
    assertThat(trace)
        .extracting(TraceSpan::service)
        .contains("intake", "prepare", "dispatch", "complete");
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
