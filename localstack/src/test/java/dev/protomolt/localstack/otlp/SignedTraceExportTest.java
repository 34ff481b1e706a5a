package dev.protomolt.localstack.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.access.tracing.TraceExport;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PolicyDocument;
import dev.protomolt.localstack.iam.PrincipalRegistry;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * Spans signed as the deployed functions and the gateway sign them for X-Ray (decision 1797),
 * through the real exporter, against the local collector that checks them as X-Ray would: the
 * signature over the body, then the signer's role policy for {@code xray:PutTraceSegments}.
 */
class SignedTraceExportTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  private final PrincipalRegistry iam = new PrincipalRegistry();
  private LambdaApiServer api;

  @BeforeEach
  void start() throws Exception {
    iam.register("AKIDTRACES", "traces-secret", principal("traced", "xray:PutTraceSegments"));
    iam.register("AKIDNOTRACES", "other-secret", principal("untraced", "s3:GetObject"));
    api =
        LambdaApiServer.start(
            0,
            new FunctionRegistry(),
            null,
            new OtlpTraceReceiver(LocalTraces.in(data), iam, Clock.systemUTC()));
  }

  @AfterEach
  void stop() {
    api.close();
  }

  /** A role allowed {@code actions} on {@code *} and nothing else. */
  static IamPrincipal principal(String name, String... actions) throws Exception {
    String policy =
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":"
            + JSON.writeValueAsString(actions)
            + ",\"Resource\":\"*\"}]}";
    return new IamPrincipal(
        name,
        "arn:aws:iam::000000000000:role/" + name,
        List.of(PolicyDocument.parse(JSON.readTree(policy), name + " policy")));
  }

  /** One span naming {@code docId}, exported signed with {@code key}/{@code secret}. */
  private void export(String key, String secret, String docId) {
    TraceExport export =
        TraceExport.from(
            Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                api.endpoint().toString(),
                "PROTOMOLT_OTLP_SIGV4_SERVICE",
                "xray",
                "AWS_REGION",
                "us-east-1",
                "AWS_ACCESS_KEY_ID",
                key,
                "AWS_SECRET_ACCESS_KEY",
                secret));
    assertThat(export.signingService()).hasValue("xray");
    try (Tracing tracing = export.open("intake")) {
      Spans.inSpan(
          tracing.tracer(),
          "intake",
          SpanKind.SERVER,
          Traceparent.parent(""),
          span -> {
            span.setAttribute(Spans.DOC_ID, docId);
            return null;
          });
      tracing.flush();
    }
  }

  @Test
  void aSignedExportFromARoleGrantedPutTraceSegmentsIsKept() {
    export("AKIDTRACES", "traces-secret", "doc-signed");

    List<TraceSpan> trace = LocalTraces.in(data).traceOf("doc-signed");
    assertThat(trace).extracting(TraceSpan::name).containsExactly("intake");
    assertThat(trace.get(0).service()).isEqualTo("intake");
  }

  @Test
  void aRoleWithoutTheGrantOrAWrongSecretKeepsNothing() {
    export("AKIDNOTRACES", "other-secret", "doc-denied");
    export("AKIDTRACES", "not-the-secret", "doc-forged");

    assertThat(LocalTraces.in(data).all()).isEmpty();
  }

  @Test
  void eachRefusalSaysWhatXrayWouldSayAndKeepsNothing() throws Exception {
    byte[] body = new byte[0];
    HttpResponse<String> denied = signedPost("AKIDNOTRACES", "other-secret", "xray", body, body);
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.headers().firstValue("X-Amzn-ErrorType")).hasValue("AccessDeniedException");
    assertThat(denied.body())
        .contains("arn:aws:sts::000000000000:assumed-role/untraced", "xray:PutTraceSegments");

    // The body is covered by the signature: another body is a signature mismatch.
    HttpResponse<String> tampered =
        signedPost(
            "AKIDTRACES", "traces-secret", "xray", body, "x".getBytes(StandardCharsets.UTF_8));
    assertThat(tampered.statusCode()).isEqualTo(403);
    assertThat(tampered.headers().firstValue("X-Amzn-ErrorType"))
        .hasValue("InvalidSignatureException");

    HttpResponse<String> wrongService =
        signedPost("AKIDTRACES", "traces-secret", "logs", body, body);
    assertThat(wrongService.statusCode()).isEqualTo(403);
    assertThat(wrongService.body()).contains("scoped to correct service: 'xray', not 'logs'");

    // Strict, as the template deployment can make it: unsigned is refused too.
    iam.setStrict(true);
    HttpResponse<String> unsigned =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(api.endpoint() + OtlpTraceReceiver.PATH))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(unsigned.statusCode()).isEqualTo(403);
    assertThat(unsigned.headers().firstValue("X-Amzn-ErrorType"))
        .hasValue("MissingAuthenticationTokenException");

    assertThat(LocalTraces.in(data).all()).isEmpty();
  }

  /** A POST signed over {@code signedBody} for {@code service}, sending {@code sentBody}. */
  private HttpResponse<String> signedPost(
      String key, String secret, String service, byte[] signedBody, byte[] sentBody)
      throws Exception {
    URI url = URI.create(api.endpoint() + OtlpTraceReceiver.PATH);
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.POST)
            .uri(url)
            .putHeader("Content-Type", "application/x-protobuf")
            .build();
    SdkHttpRequest signed =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(AwsBasicCredentials.create(key, secret))
                        .request(request)
                        .payload(ContentStreamProvider.fromByteArray(signedBody))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1"))
            .request();
    HttpRequest.Builder send =
        HttpRequest.newBuilder(url).POST(HttpRequest.BodyPublishers.ofByteArray(sentBody));
    signed
        .headers()
        .forEach(
            (name, values) -> {
              // The JDK client sets Host itself, from the same URL the signature covers.
              if (!name.equalsIgnoreCase("Host")) {
                values.forEach(v -> send.header(name, v));
              }
            });
    return HttpClient.newHttpClient().send(send.build(), HttpResponse.BodyHandlers.ofString());
  }
}
