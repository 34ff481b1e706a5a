package dev.protomolt.gateway.diagnostics;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.protomolt.gateway.access.CallerRefusedException;
import dev.protomolt.gateway.access.GatewayAccess;
import dev.protomolt.gateway.access.VerifiedCaller;
import dev.protomolt.proto.engine.v1.EffectiveConfigRequest;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc;
import dev.protomolt.proto.engine.v1.ProbeClaimCheckRequest;
import dev.protomolt.proto.engine.v1.ProbeDraftsRequest;
import dev.protomolt.proto.engine.v1.ProbeHopRequest;
import dev.protomolt.proto.engine.v1.ProbeKafkaRequest;
import dev.protomolt.proto.engine.v1.ProbeStateMachineRequest;
import dev.protomolt.proto.engine.v1.StorageCoherenceRequest;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The gateway's admin HTTP port: {@code GET /health} always, and when diagnostics are on the REST
 * shell of {@link EngineDiagnosticsGrpcService} under {@value #PREFIX}. Requests are the gRPC
 * request messages in the protobuf JSON mapping, as a POST body or as query parameters; answers are
 * the gRPC responses in the same mapping. Every path this server does not route (the diagnostics
 * paths included when diagnostics are off) gets the one same 404, so a switched-off surface cannot
 * be told from one that was never built.
 *
 * <p>A routed path is an operator door like its gRPC twin (decision 1798): the {@code
 * Authorization} header carries the same caller token, checked by the same {@link GatewayAccess}.
 * No or a refused token is 401, a caller who may not act on the request's account (or on every
 * account, for a request naming none) 403, past its rate 429, each decided from the caller and the
 * request alone, before the probe runs, so no refusal says whether an account or graph exists.
 */
public final class AdminHttpServer implements AutoCloseable {

  public static final String PREFIX = "/engine/diagnostics/";
  static final String NOT_FOUND = "404 not found\n";

  private final HttpServer server;
  private final Map<String, Route> routes = new LinkedHashMap<>();

  private final GatewayAccess access;

  /** A shell path: its gRPC method (the name access checks), request type and call. */
  private record Route(
      MethodDescriptor<?, ?> method,
      Supplier<Message.Builder> request,
      Function<Message, Message> call) {}

  /**
   * @param diagnostics the service whose calls the shell forwards to; empty when diagnostics are
   *     off, and then no diagnostics path exists
   * @param access who may call the shell: the gateway's own door keeper
   */
  public static AdminHttpServer start(
      int port, Optional<EngineDiagnosticsGrpcService> diagnostics, GatewayAccess access)
      throws IOException {
    return new AdminHttpServer(port, diagnostics, access);
  }

  private AdminHttpServer(
      int port, Optional<EngineDiagnosticsGrpcService> diagnostics, GatewayAccess access)
      throws IOException {
    this.access = Objects.requireNonNull(access, "access");
    diagnostics.ifPresent(
        d -> {
          route(
              "config",
              EngineDiagnosticsServiceGrpc.getGetEffectiveConfigMethod(),
              EffectiveConfigRequest::newBuilder,
              m -> d.effectiveConfig((EffectiveConfigRequest) m));
          route(
              "kafka",
              EngineDiagnosticsServiceGrpc.getProbeKafkaMethod(),
              ProbeKafkaRequest::newBuilder,
              m -> d.kafka((ProbeKafkaRequest) m));
          route(
              "claim-check",
              EngineDiagnosticsServiceGrpc.getProbeClaimCheckMethod(),
              ProbeClaimCheckRequest::newBuilder,
              m -> d.claimCheck((ProbeClaimCheckRequest) m));
          route(
              "drafts",
              EngineDiagnosticsServiceGrpc.getProbeDraftsMethod(),
              ProbeDraftsRequest::newBuilder,
              m -> d.drafts((ProbeDraftsRequest) m));
          route(
              "hop",
              EngineDiagnosticsServiceGrpc.getProbeHopMethod(),
              ProbeHopRequest::newBuilder,
              m -> d.hop((ProbeHopRequest) m));
          route(
              "state-machine",
              EngineDiagnosticsServiceGrpc.getProbeStateMachineMethod(),
              ProbeStateMachineRequest::newBuilder,
              m -> d.stateMachine((ProbeStateMachineRequest) m));
          route(
              "storage/coherence",
              EngineDiagnosticsServiceGrpc.getGetStorageCoherenceMethod(),
              StorageCoherenceRequest::newBuilder,
              m -> d.storageCoherence((StorageCoherenceRequest) m));
        });
    this.server = HttpServer.create(new InetSocketAddress(port), 0);
    // Probes block on Kafka, S3 and Step Functions; one virtual thread per request keeps a slow
    // probe from holding up the health check.
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
    server.start();
  }

  private void route(
      String name,
      MethodDescriptor<?, ?> method,
      Supplier<Message.Builder> request,
      Function<Message, Message> call) {
    routes.put(PREFIX + name, new Route(method, request, call));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals("/health") && method.equals("GET")) {
        send(exchange, 200, "text/plain", "ok\n");
        return;
      }
      Route route = routes.get(path);
      if (route == null || !(method.equals("GET") || method.equals("POST"))) {
        send(exchange, 404, "text/plain", NOT_FOUND);
        return;
      }
      VerifiedCaller caller;
      try {
        caller = access.verify(exchange.getRequestHeaders().getFirst("Authorization"));
      } catch (CallerRefusedException e) {
        boolean unavailable = e.status().getCode() == Status.Code.UNAVAILABLE;
        if (!unavailable) {
          exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        }
        send(exchange, unavailable ? 503 : 401, "text/plain", e.status().getDescription() + "\n");
        return;
      }
      Message.Builder request = route.request().get();
      String body =
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).strip();
      Map<String, String> params = body.isEmpty() ? query(exchange) : Map.of();
      try {
        JsonFormat.parser().merge(body.isEmpty() ? json(params) : body, request);
      } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
        send(
            exchange,
            400,
            "text/plain",
            "the request is not a valid "
                + request.getDescriptorForType().getName()
                + " in the protobuf JSON mapping: "
                + culprit(route, params).orElse("")
                + e.getMessage()
                + "\n");
        return;
      }
      Message built = request.build();
      Status refusal = access.operatorRefusal(caller, route.method().getFullMethodName(), built);
      if (refusal != null) {
        send(
            exchange,
            refusal.getCode() == Status.Code.RESOURCE_EXHAUSTED ? 429 : 403,
            "text/plain",
            refusal.getDescription() + "\n");
        return;
      }
      Message answer;
      try {
        answer = route.call().apply(built);
      } catch (StatusRuntimeException refused) {
        // The REST face of a gRPC refusal: the status's HTTP code and its description.
        send(
            exchange,
            refused.getStatus().getCode() == Status.Code.NOT_FOUND ? 404 : 400,
            "text/plain",
            refused.getStatus().getDescription() + "\n");
        return;
      }
      send(exchange, 200, "application/json", JsonFormat.printer().print(answer) + "\n");
    }
  }

  /** The query parameters by name, decoded; a repeated name keeps its last value. */
  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> params = new LinkedHashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw != null && !raw.isEmpty()) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        params.put(
            URLDecoder.decode(key, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      }
    }
    return params;
  }

  /** The parameters as one JSON object, each value a string (int64 fields accept that too). */
  private static String json(Map<String, String> params) {
    StringBuilder json = new StringBuilder("{");
    params.forEach(
        (k, v) -> {
          if (json.length() > 1) {
            json.append(',');
          }
          json.append(string(k)).append(':').append(string(v));
        });
    return json.append('}').toString();
  }

  /**
   * The first parameter that does not parse on its own, as a {@code "name: "} prefix: the JSON
   * parser's message says what is wrong with a value but not always which field it belongs to.
   */
  private static Optional<String> culprit(Route route, Map<String, String> params) {
    for (var p : params.entrySet()) {
      try {
        JsonFormat.parser().merge(json(Map.of(p.getKey(), p.getValue())), route.request().get());
      } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
        return Optional.of(p.getKey() + ": ");
      }
    }
    return Optional.empty();
  }

  /** {@code s} as a JSON string literal. */
  private static String string(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  private static void send(HttpExchange exchange, int status, String type, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try {
      exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
