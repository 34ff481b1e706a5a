package dev.protomolt.localstack.otlp;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * OTLP/HTTP's trace receiver, {@code POST /v1/traces} with a protobuf {@code
 * ExportTraceServiceRequest}, as the OpenTelemetry SDK's OTLP/HTTP exporter sends it; the spans go
 * to {@link LocalTraces}. It answers on the local AWS API port, as the local STS does, so the one
 * endpoint every function and task already has is also {@code OTEL_EXPORTER_OTLP_ENDPOINT}.
 */
public final class OtlpTraceReceiver {

  public static final String PATH = "/v1/traces";

  private final LocalTraces traces;
  private final ExportAuthorization authorization;
  private final Clock clock;
  private final XRayTraceQueries queries;

  /** A collector that keeps unsigned and unknown-key exports, as a collector with no IAM would. */
  public OtlpTraceReceiver(LocalTraces traces) {
    this(traces, new PrincipalRegistry(), Clock.systemUTC());
  }

  /**
   * A collector that checks signed exports as X-Ray does: the signature of a key {@code iam}
   * knows, then that principal's {@code xray:PutTraceSegments} (decision 1797).
   */
  public OtlpTraceReceiver(LocalTraces traces, PrincipalRegistry iam, Clock clock) {
    this.traces = Objects.requireNonNull(traces, "traces");
    this.authorization = new ExportAuthorization(iam);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.queries = new XRayTraceQueries(traces, iam, clock);
  }

  public LocalTraces traces() {
    return traces;
  }

  /**
   * Whether {@code exchange} is an OTLP trace export or one of X-Ray's trace reads the collector
   * answers from the same spans (any method, so a wrong one is told why).
   */
  public static boolean handles(HttpExchange exchange) {
    return PATH.equals(exchange.getRequestURI().getPath()) || XRayTraceQueries.handles(exchange);
  }

  public void handle(HttpExchange exchange) throws IOException {
    if (XRayTraceQueries.handles(exchange)) {
      queries.handle(exchange);
      return;
    }
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        reply(exchange, 405, "text/plain", "POST " + PATH + " only");
        return;
      }
      String type = exchange.getRequestHeaders().getFirst("Content-Type");
      if (type == null || !type.startsWith("application/x-protobuf")) {
        // OTLP/HTTP JSON is not kept: the SDK's exporters send protobuf unless told otherwise.
        reply(
            exchange,
            415,
            "text/plain",
            "Content-Type: must be application/x-protobuf (OTLP/HTTP protobuf), got " + type);
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      Optional<ExportAuthorization.Refusal> refused =
          authorization.check(
              ExportAuthorization.ACTION,
              exchange.getRequestMethod(),
              PATH,
              exchange.getRequestHeaders()::getFirst,
              body,
              clock.instant());
      if (refused.isPresent()) {
        // As X-Ray answers: the error's name in X-Amzn-ErrorType, a JSON message; nothing kept.
        exchange.getResponseHeaders().set("X-Amzn-ErrorType", refused.get().code());
        reply(
            exchange,
            refused.get().status(),
            "application/json",
            "{\"message\":\"" + refused.get().message().replace("\"", "'") + "\"}");
        return;
      }
      try {
        traces.append(OtlpTraceDecoder.decode(body));
      } catch (InvalidProtocolBufferException e) {
        reply(
            exchange,
            400,
            "text/plain",
            "body: not an OTLP ExportTraceServiceRequest: " + e.getMessage());
        return;
      }
      // An empty ExportTraceServiceResponse: every span was accepted.
      reply(exchange, 200, "application/x-protobuf", "");
    }
  }

  private static void reply(HttpExchange exchange, int status, String type, String text)
      throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
