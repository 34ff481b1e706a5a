package dev.protomolt.localstack.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.access.tracing.XRayTraceSource;
import dev.protomolt.core.tracing.DocumentTrace;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.xray.XRayClient;
import software.amazon.awssdk.services.xray.model.XRayException;

/**
 * The console's X-Ray adapter, with the AWS SDK's own client, against the local collector's
 * answers to GetTraceSummaries and BatchGetTraces (decision 1830): the spans come back whole, the
 * newest trace wins as in {@code protomolt trace}, and the reads are held to the signer's policy.
 */
class XRayTraceQueriesTest {

  private static final long NOW = Instant.now().getEpochSecond() * 1_000_000_000L;
  private static final String OLD = "0af7651916cd43dd8448eb211c80319c";
  private static final String NEW = "4bf92f3577b34da6a3ce929d0e0e4736";

  @TempDir Path data;

  private final PrincipalRegistry iam = new PrincipalRegistry();
  private LambdaApiServer api;

  @BeforeEach
  void start() throws Exception {
    iam.register(
        "AKIDREADER",
        "reader-secret",
        SignedTraceExportTest.principal("reader", "xray:GetTraceSummaries", "xray:BatchGetTraces"));
    iam.register(
        "AKIDWRITER",
        "writer-secret",
        SignedTraceExportTest.principal("writer", "xray:PutTraceSegments"));
    LocalTraces traces = LocalTraces.in(data);
    traces.append(
        List.of(
            span(OLD, "a1", "", "intake", "doc-1", NOW, "OK", ""),
            span(NEW, "b1", "", "intake", "", NOW + 5_000_000L, "UNSET", ""),
            span(NEW, "b2", "b1", "hop parse", "doc-1", NOW + 6_123_456L, "ERROR", "boom"),
            span(NEW, "b3", "gone", "sink", "doc-1", NOW + 9_000_000L, "OK", ""),
            span("11111111111111111111111111111111", "c1", "", "intake", "doc-2", NOW, "OK", ""),
            new TraceSpan(
                "22222222222222222222222222222222",
                "d1",
                "",
                "intake",
                "protomolt-intake",
                NOW,
                NOW + 1,
                "OK",
                "",
                Map.of(DocumentTrace.DOC_ID, "doc-3"))));
    api =
        LambdaApiServer.start(
            0, new FunctionRegistry(), null, new OtlpTraceReceiver(traces, iam, Clock.systemUTC()));
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void theAdapterReadsTheNewestTraceNamingTheDocumentWithEverySpanWhole() {
    try (XRayClient xray = client("AKIDREADER", "reader-secret")) {
      List<TraceSpan> read = new XRayTraceSource(xray, Clock.systemUTC()).tracesNaming("doc-1");
      assertThat(read).extracting(TraceSpan::traceId).containsOnly(OLD, NEW);

      List<TraceSpan> trace = DocumentTrace.newest(read, "doc-1");
      assertThat(trace).extracting(TraceSpan::spanId).containsExactly("b1", "b2", "b3");
      TraceSpan hop = trace.get(1);
      assertThat(hop.parentSpanId()).isEqualTo("b1");
      assertThat(hop.name()).isEqualTo("hop parse");
      assertThat(hop.service()).isEqualTo("protomolt-hop");
      assertThat(hop.startNanos()).isEqualTo(NOW + 6_123_456L);
      assertThat(hop.durationNanos()).isEqualTo(2_000_000L);
      assertThat(hop.status()).isEqualTo("ERROR");
      assertThat(hop.statusMessage()).isEqualTo("boom");
      assertThat(hop.attributes())
          .containsEntry(DocumentTrace.DOC_ID, "doc-1")
          .containsEntry("protomolt.node_id", "parse")
          .doesNotContainKey(DocumentTrace.XRAY_ANNOTATIONS);
      assertThat(trace.get(0).parentSpanId()).isEmpty();
    }
  }

  @Test
  void aDocumentNoSpanNamesHasNoTraces() {
    try (XRayClient xray = client("AKIDREADER", "reader-secret")) {
      assertThat(new XRayTraceSource(xray, Clock.systemUTC()).tracesNaming("doc-9")).isEmpty();
    }
  }

  @Test
  void aDocumentIdTheSpanDidNotListAsAnAnnotationCannotBeFilteredOn() {
    try (XRayClient xray = client("AKIDREADER", "reader-secret")) {
      assertThat(new XRayTraceSource(xray, Clock.systemUTC()).tracesNaming("doc-3")).isEmpty();
    }
  }

  @Test
  void aSignerWithoutTheReadActionsIsDenied() {
    try (XRayClient xray = client("AKIDWRITER", "writer-secret")) {
      assertThatThrownBy(() -> new XRayTraceSource(xray, Clock.systemUTC()).tracesNaming("doc-1"))
          .isInstanceOf(XRayException.class)
          .hasMessageContaining("is not authorized to perform: xray:GetTraceSummaries");
    }
  }

  @Test
  void aFilterTheCollectorDoesNotAnswerIsRefusedNamingTheField() {
    try (XRayClient xray = client("AKIDREADER", "reader-secret")) {
      assertThatThrownBy(
              () ->
                  xray.getTraceSummaries(
                      b ->
                          b.startTime(Instant.now().minusSeconds(60))
                              .endTime(Instant.now())
                              .filterExpression("service(\"x\")")))
          .isInstanceOf(XRayException.class)
          .hasMessageContaining("FilterExpression");
    }
  }

  private XRayClient client(String key, String secret) {
    return XRayClient.builder()
        .endpointOverride(api.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static TraceSpan span(
      String trace,
      String id,
      String parent,
      String name,
      String docId,
      long start,
      String status,
      String message) {
    return new TraceSpan(
        trace,
        id,
        parent,
        name,
        name.startsWith("hop") ? "protomolt-hop" : "protomolt-intake",
        start,
        start + 2_000_000L,
        status,
        message,
        docId.isEmpty()
            ? Map.of()
            : Map.of(
                DocumentTrace.DOC_ID,
                docId,
                DocumentTrace.XRAY_ANNOTATIONS,
                DocumentTrace.DOC_ID,
                "protomolt.node_id",
                "parse"));
  }
}
