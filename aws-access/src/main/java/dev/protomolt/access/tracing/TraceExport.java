package dev.protomolt.access.tracing;

import dev.protomolt.access.AwsClientSettings;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.tracing.Tracing;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * Where a function's or the gateway's spans go and how they are signed (decisions 1793, 1797),
 * read once from the process's own variables so a bad value is refused at start, naming it:
 *
 * <ul>
 *   <li>{@code OTEL_EXPORTER_OTLP_ENDPOINT} unset: tracing off;
 *   <li>set, {@code PROTOMOLT_OTLP_SIGV4_SERVICE} unset: plain OTLP/HTTP, as to a collector;
 *   <li>both set: every export SigV4-signed for that service in {@code AWS_REGION} with the
 *       process's credentials, as X-Ray's OTLP endpoint requires (the stack sets {@code xray}).
 * </ul>
 */
public final class TraceExport {

  private static final Pattern SERVICE = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

  /** A dropped export waits no longer than this for X-Ray, so a Lambda's flush stays short. */
  private static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final Optional<String> endpoint;
  private final Optional<String> signingService;
  private final String region;
  private final AwsClientSettings aws;

  private TraceExport(
      Optional<String> endpoint,
      Optional<String> signingService,
      String region,
      AwsClientSettings aws) {
    this.endpoint = endpoint;
    this.signingService = signingService;
    this.region = region;
    this.aws = aws;
  }

  /**
   * @param values the process's variables (the function's or the task's environment)
   * @throws IllegalStateException naming the variable and the rule for a bad value
   */
  public static TraceExport from(Map<String, String> values) {
    Objects.requireNonNull(values, "values");
    Optional<String> endpoint = optional(values, PlatformVariable.OTLP_ENDPOINT.key());
    Optional<String> service = optional(values, PlatformVariable.OTLP_SIGV4_SERVICE.key());
    String region = optional(values, PlatformVariable.AWS_REGION.key()).orElse("");
    if (endpoint.isPresent()) {
      try {
        Tracing.tracesUrl(endpoint.get());
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }
    if (service.isPresent()) {
      String key = PlatformVariable.OTLP_SIGV4_SERVICE.key();
      if (!SERVICE.matcher(service.get()).matches()) {
        throw new IllegalStateException(
            key
                + ": must be a SigV4 service name (lowercase letters, digits and '-', such as"
                + " xray), got \""
                + service.get()
                + "\"");
      }
      if (endpoint.isPresent() && region.isEmpty()) {
        throw new IllegalStateException(
            PlatformVariable.AWS_REGION.key()
                + ": required to sign trace exports ("
                + key
                + " is set), but not set");
      }
    }
    return new TraceExport(endpoint, service, region, new AwsClientSettings(values));
  }

  /** Whether spans are exported at all. */
  public boolean enabled() {
    return endpoint.isPresent();
  }

  /** The SigV4 service exports are signed for; empty when they are sent unsigned. */
  public Optional<String> signingService() {
    return endpoint.isPresent() ? signingService : Optional.empty();
  }

  /**
   * The tracer of one process whose spans carry {@code service} as {@code service.name}.
   *
   * @throws IllegalStateException naming the variable when signing needs keys that are half set
   */
  public Tracing open(String service) {
    if (endpoint.isEmpty()) {
      return Tracing.off();
    }
    if (signingService.isEmpty()) {
      return Tracing.toCollector(endpoint.get(), service);
    }
    return Tracing.exportingTo(
        new SigV4SpanExporter(
            UrlConnectionHttpClient.builder()
                .connectionTimeout(TIMEOUT)
                .socketTimeout(TIMEOUT)
                .build(),
            aws.credentials(),
            URI.create(Tracing.tracesUrl(endpoint.get())),
            signingService.get(),
            region),
        service);
  }

  private static Optional<String> optional(Map<String, String> values, String key) {
    String v = values.get(key);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }
}
