package dev.protomolt.access.tracing;

import dev.protomolt.access.SigV4Signing;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * OTLP/HTTP protobuf export of spans with every request SigV4-signed, as X-Ray's OTLP endpoint
 * ({@code https://xray.<region>.amazonaws.com/v1/traces}) requires (decision 1797). The
 * OpenTelemetry exporter cannot sign: a signature covers the body, and its header hook never sees
 * the body. So the request is built here: the SDK's own OTLP marshaller writes the body, the AWS
 * SDK's signer signs it with the process's credentials (Lambda's role keys, the task role), and
 * the SDK's HTTP client sends it.
 *
 * <p>The marshaller lives in an {@code internal} package of {@code opentelemetry-exporter-otlp};
 * it is the one the SDK's own exporters use, and the version is pinned by the parent pom.
 */
public final class SigV4SpanExporter implements SpanExporter {

  private static final Logger LOG = Logger.getLogger(SigV4SpanExporter.class.getName());

  private final SdkHttpClient http;
  private final AwsCredentialsProvider credentials;
  private final URI tracesUrl;
  private final String signingService;
  private final String region;

  /**
   * @param tracesUrl the full URL spans are posted to, {@code <endpoint>/v1/traces}
   * @param signingService the SigV4 service name, {@code xray} for X-Ray
   */
  public SigV4SpanExporter(
      SdkHttpClient http,
      AwsCredentialsProvider credentials,
      URI tracesUrl,
      String signingService,
      String region) {
    this.http = Objects.requireNonNull(http, "http");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.tracesUrl = Objects.requireNonNull(tracesUrl, "tracesUrl");
    this.signingService = Objects.requireNonNull(signingService, "signingService");
    this.region = Objects.requireNonNull(region, "region");
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    if (spans.isEmpty()) {
      return CompletableResultCode.ofSuccess();
    }
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      TraceRequestMarshaler.create(spans).writeBinaryTo(body);
      byte[] bytes = body.toByteArray();
      SdkHttpRequest request =
          SdkHttpRequest.builder()
              .method(SdkHttpMethod.POST)
              .uri(tracesUrl)
              .putHeader("Content-Type", "application/x-protobuf")
              .putHeader("Content-Length", Integer.toString(bytes.length))
              .build();
      SdkHttpRequest signed =
          SigV4Signing.sign(
              request,
              ContentStreamProvider.fromByteArray(bytes),
              credentials,
              signingService,
              region);
      HttpExecuteResponse response =
          http.prepareRequest(
                  HttpExecuteRequest.builder()
                      .request(signed)
                      .contentStreamProvider(ContentStreamProvider.fromByteArray(bytes))
                      .build())
              .call();
      if (response.httpResponse().isSuccessful()) {
        drain(response);
        return CompletableResultCode.ofSuccess();
      }
      // Dropped, not retried: tracing never holds up the work it describes (decision 1793).
      LOG.warning(
          () ->
              "OTLP export of "
                  + spans.size()
                  + " spans to "
                  + tracesUrl
                  + " refused with "
                  + response.httpResponse().statusCode()
                  + ": "
                  + drain(response));
      return CompletableResultCode.ofFailure();
    } catch (IOException e) {
      // A collector that is slow or gone is the network's state, not a bug: one line, no trace.
      LOG.warning(
          () ->
              "OTLP export of "
                  + spans.size()
                  + " spans to "
                  + tracesUrl
                  + " dropped: "
                  + e
                  + " (tracing never waits for its collector)");
      return CompletableResultCode.ofFailure();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "OTLP export of " + spans.size() + " spans to " + tracesUrl, e);
      return CompletableResultCode.ofFailure();
    }
  }

  private static String drain(HttpExecuteResponse response) {
    if (response.responseBody().isEmpty()) {
      return "";
    }
    try (InputStream in = response.responseBody().get()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(body unreadable: " + e.getMessage() + ")";
    }
  }

  @Override
  public CompletableResultCode flush() {
    // Every export is sent before it returns.
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    http.close();
    return CompletableResultCode.ofSuccess();
  }
}
