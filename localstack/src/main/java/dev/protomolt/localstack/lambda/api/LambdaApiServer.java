package dev.protomolt.localstack.lambda.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.protomolt.localstack.kms.LocalKms;
import dev.protomolt.localstack.lambda.LambdaInvocationException;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.otlp.OtlpTraceReceiver;
import dev.protomolt.localstack.sts.LocalSts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lambda's API on loopback, over the REST-JSON protocol the AWS SDKs and the AWS CLI speak:
 * {@code GET /2015-03-31/functions/} (ListFunctions, paged by {@code Marker} and {@code
 * MaxItems}), {@code GET /2015-03-31/functions/<name>} (GetFunction), {@code GET
 * .../<name>/configuration} (GetFunctionConfiguration) and {@code POST .../<name>/invocations}
 * (Invoke: {@code RequestResponse}, {@code Event} and {@code DryRun}). A function name may be a
 * name, {@code name:qualifier}, a partial or a full ARN, and a {@code Qualifier} parameter names a
 * version or alias, as in AWS. Errors carry their code in {@code X-Amzn-ErrorType} and a JSON body
 * with {@code Type} and {@code message}, which the SDK turns into its typed exceptions.
 */
public final class LambdaApiServer implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LambdaApiServer.class.getName());
  private static final String PREFIX = "/2015-03-31/functions";
  private static final String LATEST = "$LATEST";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final FunctionRegistry functions;
  private final LocalSts sts;
  private final OtlpTraceReceiver traces;
  private final LocalKms kms;
  private final ExecutorService asyncInvocations = Executors.newVirtualThreadPerTaskExecutor();

  private LambdaApiServer(
      HttpServer server,
      FunctionRegistry functions,
      LocalSts sts,
      OtlpTraceReceiver traces,
      LocalKms kms) {
    this.server = server;
    this.functions = functions;
    this.sts = sts;
    this.traces = traces;
    this.kms = kms;
  }

  /**
   * Starts serving {@code functions} on {@code 127.0.0.1:port} (0 picks a free port).
   *
   * @throws IOException naming the port when it is taken
   */
  public static LambdaApiServer start(int port, FunctionRegistry functions) throws IOException {
    return start(port, functions, null);
  }

  /**
   * As above, also answering STS's Query protocol on the root path with {@code sts} (null: none),
   * so one local AWS API port serves both, as {@code AWS_ENDPOINT_URL_STS} names it.
   */
  public static LambdaApiServer start(int port, FunctionRegistry functions, LocalSts sts)
      throws IOException {
    return start(port, functions, sts, null);
  }

  /**
   * As above, also keeping the spans OTLP/HTTP exporters post to {@code /v1/traces} with {@code
   * traces} (null: none), so this port is the local {@code OTEL_EXPORTER_OTLP_ENDPOINT} too.
   */
  public static LambdaApiServer start(
      int port, FunctionRegistry functions, LocalSts sts, OtlpTraceReceiver traces)
      throws IOException {
    return start(port, functions, sts, traces, null);
  }

  /**
   * As above, also answering KMS's JSON protocol ({@code X-Amz-Target: TrentService.*}) with
   * {@code kms} (null: none), so this port is the local {@code AWS_ENDPOINT_URL_KMS} too.
   */
  public static LambdaApiServer start(
      int port, FunctionRegistry functions, LocalSts sts, OtlpTraceReceiver traces, LocalKms kms)
      throws IOException {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (BindException e) {
      throw new IOException(
          "Lambda API port " + port + " is already in use on 127.0.0.1; pick another port", e);
    }
    LambdaApiServer api = new LambdaApiServer(server, functions, sts, traces, kms);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", api::handle);
    server.start();
    return api;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public void close() {
    server.stop(0);
    asyncInvocations.shutdownNow();
  }

  /** An error as Lambda answers it. */
  private static final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    ApiError(int status, String code, String message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  /** A response: status, headers and body bytes. */
  private record Reply(int status, Map<String, String> headers, byte[] body) {
    static Reply json(int status, Object body) {
      try {
        return new Reply(
            status, Map.of("Content-Type", "application/json"), JSON.writeValueAsBytes(body));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a JSON tree always serialises", e);
      }
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    // KMS's JSON protocol also posts to the root path: its target header tells it from STS.
    if (kms != null && LocalKms.handles(exchange)) {
      kms.handle(exchange);
      return;
    }
    if (sts != null && LocalSts.handles(exchange)) {
      sts.handle(exchange);
      return;
    }
    if (traces != null && OtlpTraceReceiver.handles(exchange)) {
      traces.handle(exchange);
      return;
    }
    try (exchange) {
      Reply reply;
      try {
        reply = route(exchange);
      } catch (ApiError e) {
        ObjectNode body = JSON.createObjectNode();
        body.put("Type", "User");
        body.put("message", e.getMessage());
        reply = Reply.json(e.status, body);
        reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        exchange.getResponseHeaders().set("X-Amzn-ErrorType", e.code);
      } catch (RuntimeException e) {
        LOG.log(Level.SEVERE, "local Lambda API request failed", e);
        ObjectNode body = JSON.createObjectNode();
        body.put("Type", "Service");
        body.put("message", e.toString());
        reply = Reply.json(500, body);
        exchange.getResponseHeaders().set("X-Amzn-ErrorType", "ServiceException");
      }
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      if (reply.body().length == 0) {
        exchange.sendResponseHeaders(reply.status(), -1);
      } else {
        exchange.sendResponseHeaders(reply.status(), reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(reply.body());
        }
      }
    }
  }

  private Reply route(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    String method = exchange.getRequestMethod();
    if (!path.startsWith(PREFIX)) {
      throw new ApiError(
          404, "UnknownOperationException", "The local Lambda API does not serve " + path);
    }
    String rest = path.substring(PREFIX.length());
    if ((rest.isEmpty() || rest.equals("/")) && method.equals("GET")) {
      return listFunctions(query);
    }
    String[] segments = rest.substring(1).split("/", -1);
    String function = URLDecoder.decode(segments[0], StandardCharsets.UTF_8);
    Target target = target(function, query.get("Qualifier"));
    if (segments.length == 1 && method.equals("GET")) {
      return getFunction(target);
    }
    if (segments.length == 2 && segments[1].equals("configuration") && method.equals("GET")) {
      return Reply.json(200, configuration(target));
    }
    if (segments.length == 2 && segments[1].equals("invocations") && method.equals("POST")) {
      byte[] payload;
      try (InputStream in = exchange.getRequestBody()) {
        payload = in.readAllBytes();
      }
      return invoke(
          target,
          new String(payload, StandardCharsets.UTF_8),
          header(exchange, "X-Amz-Invocation-Type", "RequestResponse"),
          header(exchange, "X-Amz-Log-Type", "None"));
    }
    throw new ApiError(
        404,
        "UnknownOperationException",
        "The local Lambda API does not serve " + method + " " + path);
  }

  private static String header(HttpExchange exchange, String name, String fallback) {
    String value = exchange.getRequestHeaders().getFirst(name);
    return value == null || value.isEmpty() ? fallback : value;
  }

  /** A function and the qualifier a call names; {@code executedVersion} is what actually runs. */
  private record Target(
      FunctionRegistry.DeployedFunction function, String qualifier, String executedVersion) {
    String arn() {
      String base = function.configuration().arn();
      return qualifier == null ? base : base + ":" + qualifier;
    }
  }

  private Target target(String function, String queryQualifier) {
    String name = function;
    String qualifier = null;
    if (function.startsWith("arn:")) {
      String[] parts = function.split(":");
      if (parts.length < 7 || !parts[5].equals("function")) {
        throw new ApiError(
            400, "ValidationException", "FunctionName: '" + function + "' is not a function ARN");
      }
      name = parts[6];
      qualifier = parts.length > 7 ? parts[7] : null;
    } else {
      String[] parts = function.split(":");
      if (parts.length >= 3 && parts[1].equals("function")) {
        name = parts[2];
        qualifier = parts.length > 3 ? parts[3] : null;
      } else if (parts.length == 2) {
        name = parts[0];
        qualifier = parts[1];
      }
    }
    if (queryQualifier != null && qualifier != null && !queryQualifier.equals(qualifier)) {
      throw new ApiError(
          400,
          "InvalidParameterValueException",
          "The derived qualifier from the function name does not match the specified qualifier.");
    }
    if (qualifier == null) {
      qualifier = queryQualifier;
    }
    String finalName = name;
    FunctionRegistry.DeployedFunction deployed =
        functions
            .find(name)
            .orElseThrow(
                () ->
                    new ApiError(
                        404,
                        "ResourceNotFoundException",
                        "Function not found: " + unqualifiedArnGuess(function, finalName)));
    String executed = LATEST;
    if (qualifier != null && !qualifier.equals(LATEST)) {
      Map<String, String> aliases = deployed.configuration().aliases();
      if (aliases.containsKey(qualifier)) {
        executed = aliases.get(qualifier);
      } else if (aliases.containsValue(qualifier)) {
        executed = qualifier;
      } else {
        throw new ApiError(
            404,
            "ResourceNotFoundException",
            "Function not found: " + deployed.configuration().arn() + ":" + qualifier);
      }
    }
    return new Target(deployed, qualifier, executed);
  }

  private static String unqualifiedArnGuess(String function, String name) {
    return function.startsWith("arn:") ? function : "function " + name;
  }

  private Reply listFunctions(Map<String, String> query) {
    List<FunctionRegistry.DeployedFunction> all = functions.all();
    int start = 0;
    String marker = query.get("Marker");
    if (marker != null) {
      start = -1;
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).configuration().name().compareTo(marker) >= 0) {
          start = i;
          break;
        }
      }
      if (start < 0) {
        start = all.size();
      }
    }
    int maxItems = 50;
    if (query.containsKey("MaxItems")) {
      try {
        maxItems = Integer.parseInt(query.get("MaxItems"));
      } catch (NumberFormatException e) {
        maxItems = -1;
      }
      if (maxItems < 1 || maxItems > 10000) {
        throw new ApiError(
            400,
            "InvalidParameterValueException",
            "MaxItems: '" + query.get("MaxItems") + "' must be an integer from 1 to 10000");
      }
    }
    ObjectNode body = JSON.createObjectNode();
    ArrayNode list = body.putArray("Functions");
    int end = Math.min(all.size(), start + maxItems);
    for (int i = start; i < end; i++) {
      list.add(configuration(new Target(all.get(i), null, LATEST)));
    }
    if (end < all.size()) {
      body.put("NextMarker", all.get(end).configuration().name());
    }
    return Reply.json(200, body);
  }

  private Reply getFunction(Target target) {
    ObjectNode body = JSON.createObjectNode();
    body.set("Configuration", configuration(target));
    ObjectNode code = body.putObject("Code");
    code.put("RepositoryType", "S3");
    code.put("Location", "local://in-process/" + target.function().configuration().name());
    body.putObject("Tags");
    return Reply.json(200, body);
  }

  private static ObjectNode configuration(Target target) {
    FunctionConfiguration c = target.function().configuration();
    ObjectNode node = JSON.createObjectNode();
    node.put("FunctionName", c.name());
    node.put("FunctionArn", target.arn());
    node.put("Runtime", c.runtime());
    node.put("Role", c.roleArn());
    node.put("Handler", c.handler());
    node.put("CodeSize", 0);
    node.put("Description", c.description());
    node.put("Timeout", c.timeoutSeconds());
    node.put("MemorySize", c.memorySizeMb());
    node.put("LastModified", "1970-01-01T00:00:00.000+0000");
    node.put("CodeSha256", "");
    node.put("Version", target.executedVersion());
    ObjectNode variables = node.putObject("Environment").putObject("Variables");
    c.environment().forEach(variables::put);
    node.putObject("TracingConfig").put("Mode", "PassThrough");
    node.put("PackageType", "Zip");
    node.putArray("Architectures").add("x86_64");
    node.put("State", "Active");
    node.put("LastUpdateStatus", "Successful");
    return node;
  }

  private Reply invoke(Target target, String payload, String invocationType, String logType) {
    String event = payload.isBlank() ? "{}" : payload;
    try {
      JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new ApiError(
          400,
          LambdaInvocationException.INVALID_REQUEST_CONTENT,
          "Could not parse request body into json: " + e.getOriginalMessage());
    }
    Map<String, String> headers = new HashMap<>();
    headers.put("X-Amz-Executed-Version", target.executedVersion());
    switch (invocationType) {
      case "DryRun" -> {
        return new Reply(204, headers, new byte[0]);
      }
      case "Event" -> {
        String name = target.function().configuration().name();
        asyncInvocations.execute(
            () -> {
              try {
                LambdaResult result = target.function().entryPoint().invoke(event);
                if (result instanceof LambdaResult.Failure failure) {
                  LOG.warning(
                      "asynchronous invocation of "
                          + name
                          + " failed: "
                          + failure.errorType()
                          + ": "
                          + failure.errorMessage());
                }
              } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "asynchronous invocation of " + name + " failed", e);
              }
            });
        return new Reply(202, headers, new byte[0]);
      }
      case "RequestResponse" -> {
        String requestId = UUID.randomUUID().toString();
        LambdaResult result;
        try {
          result = target.function().entryPoint().invoke(event);
        } catch (LambdaInvocationException e) {
          int status =
              LambdaInvocationException.RESOURCE_NOT_FOUND.equals(e.errorCode()) ? 404 : 400;
          throw new ApiError(status, e.errorCode(), e.getMessage());
        }
        if (logType.equals("Tail")) {
          String log =
              "START RequestId: "
                  + requestId
                  + " Version: "
                  + target.executedVersion()
                  + "\nEND RequestId: "
                  + requestId
                  + "\n";
          headers.put(
              "X-Amz-Log-Result",
              Base64.getEncoder().encodeToString(log.getBytes(StandardCharsets.UTF_8)));
        }
        headers.put("Content-Type", "application/json");
        String body =
            switch (result) {
              case LambdaResult.Success success -> success.payload();
              case LambdaResult.Failure failure -> {
                headers.put("X-Amz-Function-Error", "Unhandled");
                yield failure.toJson();
              }
            };
        return new Reply(200, headers, body.getBytes(StandardCharsets.UTF_8));
      }
      default ->
          throw new ApiError(
              400,
              "InvalidParameterValueException",
              "X-Amz-Invocation-Type: '"
                  + invocationType
                  + "' must be RequestResponse, Event or DryRun");
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> params = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.put(key, value);
    }
    return params;
  }
}
