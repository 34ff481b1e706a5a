package dev.protomolt.localstack.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import dev.protomolt.tracing.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local collector on the local AWS API port: spans the real SDK exports over OTLP/HTTP from
 * two "processes" (two tracers, two service names) are kept under the data folder, readable by a
 * reader that shares nothing with the receiver but the folder, as {@code protomolt trace} is.
 */
class OtlpTraceReceiverTest {

  @TempDir Path data;

  private LambdaApiServer api;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    api =
        LambdaApiServer.start(
            0, new FunctionRegistry(), null, new OtlpTraceReceiver(LocalTraces.in(data)));
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void spansExportedByTwoProcessesAreKeptAsOneParentedTraceFoundByDocument() {
    String endpoint = api.endpoint().toString();
    String carried;
    try (Tracing intake = Tracing.fromEnvironment(otlp(endpoint)::get, "intake")) {
      carried =
          Spans.inSpan(
              intake.tracer(),
              "intake",
              SpanKind.SERVER,
              Traceparent.parent(""),
              span -> {
                Spans.aboutDocument(span, "doc-1");
                return Traceparent.current();
              });
      intake.flush();
    }
    try (Tracing complete = Tracing.fromEnvironment(otlp(endpoint)::get, "complete")) {
      try {
        Spans.inSpan(
            complete.tracer(),
            "complete",
            SpanKind.SERVER,
            Traceparent.parent(carried),
            span -> {
              throw new IllegalStateException("routing failed");
            });
      } catch (IllegalStateException expected) {
        // The span records it; the test reads it back below.
      }
      complete.flush();
    }

    List<TraceSpan> trace = LocalTraces.in(data).traceOf("doc-1");

    assertThat(trace).extracting(TraceSpan::name).containsExactly("intake", "complete");
    TraceSpan root = trace.get(0);
    TraceSpan hop = trace.get(1);
    assertThat(root.traceId()).isEqualTo(Traceparent.traceId(carried)).hasSize(32);
    assertThat(root.parentSpanId()).isEmpty();
    assertThat(root.service()).isEqualTo("intake");
    assertThat(root.attributes())
        .containsEntry("protomolt.doc_id", "doc-1")
        // an OTLP array attribute, read back as its entries joined
        .containsEntry("aws.xray.annotations", "protomolt.doc_id");
    assertThat(hop.traceId()).isEqualTo(root.traceId());
    assertThat(hop.parentSpanId()).isEqualTo(root.spanId());
    assertThat(hop.service()).isEqualTo("complete");
    assertThat(hop.status()).isEqualTo("ERROR");
    assertThat(hop.statusMessage()).isEqualTo("IllegalStateException");
    assertThat(hop.endNanos()).isGreaterThanOrEqualTo(hop.startNanos());
    assertThat(LocalTraces.in(data).traceOf("doc-unknown")).isEmpty();
  }

  @Test
  void aRequestThatIsNotAnOtlpProtobufExportIsRefusedNamingTheRuleAndKeepsNothing()
      throws Exception {
    HttpResponse<String> json = post("application/json", "{\"resourceSpans\":[]}".getBytes());
    assertThat(json.statusCode()).isEqualTo(415);
    assertThat(json.body()).contains("Content-Type").contains("application/x-protobuf");

    HttpResponse<String> garbage = post("application/x-protobuf", new byte[] {(byte) 0xff, 0x01});
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(garbage.body()).contains("body: not an OTLP ExportTraceServiceRequest");

    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(URI.create(api.endpoint() + OtlpTraceReceiver.PATH))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);

    assertThat(LocalTraces.in(data).all()).isEmpty();
  }

  private HttpResponse<String> post(String type, byte[] body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(api.endpoint() + OtlpTraceReceiver.PATH))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, String> otlp(String endpoint) {
    return Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
  }
}
