package dev.protomolt.tracing;

import dev.protomolt.names.PlatformVariable;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One process's (or, locally, one function's or the gateway's) tracer. Built from {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT}: unset, tracing is off and every span is the API's no-op one, so
 * an untraced deployment pays one virtual call per span and nothing else. Set, spans go over
 * OTLP/HTTP (protobuf) to {@code <endpoint>/v1/traces}, as the OpenTelemetry specification says
 * the base endpoint variable is read.
 *
 * <p>No global is registered: in the local cloud every function and the gateway share one JVM,
 * and each must report its own {@code service.name}. The current span travels in the thread's
 * {@code Context}, which every provider shares, so a store save inside a function's span is its
 * child whichever tracer records it.
 */
public final class Tracing implements AutoCloseable {

  /** The instrumentation scope every ProtoMolt span is recorded under. */
  public static final String SCOPE = "dev.protomolt";

  private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

  private static final Tracing OFF = new Tracing(OpenTelemetry.noop(), null);

  private final OpenTelemetry telemetry;
  private final SdkTracerProvider provider;

  private Tracing(OpenTelemetry telemetry, SdkTracerProvider provider) {
    this.telemetry = telemetry;
    this.provider = provider;
  }

  /** Tracing off: no-op spans, nothing exported. */
  public static Tracing off() {
    return OFF;
  }

  /**
   * @param env reads one environment variable (null when unset)
   * @param service the {@code service.name} this process's spans carry, e.g. {@code complete}
   */
  public static Tracing fromEnvironment(Function<String, String> env, String service) {
    return toCollector(env.apply(PlatformVariable.OTLP_ENDPOINT.key()), service);
  }

  /**
   * @param endpoint the OTLP/HTTP base URL; null or blank for tracing off
   */
  public static Tracing toCollector(String endpoint, String service) {
    if (endpoint == null || endpoint.isBlank()) {
      return OFF;
    }
    return exportingTo(
        OtlpHttpSpanExporter.builder().setEndpoint(tracesUrl(endpoint)).build(), service);
  }

  /** Spans exported through {@code exporter} in batches; tests hand an in-memory one. */
  public static Tracing exportingTo(SpanExporter exporter, String service) {
    Objects.requireNonNull(exporter, "exporter");
    return recordingWith(BatchSpanProcessor.builder(exporter).build(), service);
  }

  /** Spans handed to {@code processor} as they end. */
  public static Tracing recordingWith(SpanProcessor processor, String service) {
    Objects.requireNonNull(service, "service");
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.getDefault().merge(Resource.builder().put(SERVICE_NAME, service).build()))
            .addSpanProcessor(processor)
            .build();
    return new Tracing(OpenTelemetrySdk.builder().setTracerProvider(provider).build(), provider);
  }

  /**
   * {@code OTEL_EXPORTER_OTLP_ENDPOINT} is a base URL: the traces signal is posted under {@code
   * /v1/traces} of it.
   *
   * @throws IllegalArgumentException naming the variable when the value is not an http(s) URL
   */
  public static String tracesUrl(String endpoint) {
    URI uri;
    try {
      uri = URI.create(endpoint.strip());
    } catch (IllegalArgumentException e) {
      throw refuse(endpoint, e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw refuse(endpoint, "must be an http:// or https:// URL with a host");
    }
    String base = uri.toString();
    return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
  }

  private static IllegalArgumentException refuse(String endpoint, String rule) {
    return new IllegalArgumentException(
        PlatformVariable.OTLP_ENDPOINT.key() + " '" + endpoint + "': " + rule);
  }

  public boolean enabled() {
    return provider != null;
  }

  public Tracer tracer() {
    return telemetry.getTracer(SCOPE);
  }

  /**
   * Exports what has ended, waiting up to five seconds: a Lambda container is frozen between
   * invocations, so a function flushes before it returns or its spans wait for the next one.
   */
  public void flush() {
    if (provider != null) {
      provider.forceFlush().join(5, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() {
    if (provider != null) {
      provider.shutdown().join(5, TimeUnit.SECONDS);
    }
  }
}
