package dev.protomolt.localstack.apigw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.protomolt.localstack.cloud.LoopbackPort;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The local stand-in for an API Gateway HTTP API with an IAM-authorized Lambda integration, plus
 * the static site CloudFront would serve beside it. Every request under {@code /api/} becomes a
 * payload format 2.0 event for one function, invoked through the local Lambda runner; the
 * function's {@code {statusCode, headers, body}} becomes the response. Everything else is a static
 * asset, with {@code index.html} for paths that name none (the console routes in the browser).
 *
 * <p>There is no SigV4 in a browser, so the front plays the authorizer: it mints a random token at
 * start, the console URL carries it once ({@code /?token=...} sets an HTTP-only cookie), and an API
 * request without it is refused here with 401, never reaching the function. An accepted request
 * carries the configured operator's IAM identity in {@code requestContext.authorizer.iam}, the
 * shape API Gateway's IAM authorizer gives the function in AWS.
 */
public final class HttpApiFront implements AutoCloseable {

  /** The cookie the console page's first load sets from the URL's token. */
  public static final String COOKIE = "protomolt-console";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "json", "application/json",
          "ico", "image/x-icon");

  /** Where static assets come from: a path relative to the site root, or empty when absent. */
  @FunctionalInterface
  public interface Assets {
    Optional<byte[]> read(String path);

    /** Assets packaged on the class path under {@code root} (a folder of a jar). */
    static Assets classpath(ClassLoader loader, String root) {
      return path -> {
        try (InputStream in = loader.getResourceAsStream(root + "/" + path)) {
          return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
          throw new UncheckedIOException("reading asset " + root + "/" + path, e);
        }
      };
    }
  }

  /**
   * Who the front says the caller is, once the token matched.
   *
   * @param accountId the account of the operator principal
   * @param userArn the principal's ARN
   */
  public record Operator(String accountId, String userArn) {
    public Operator {
      Objects.requireNonNull(accountId, "accountId");
      Objects.requireNonNull(userArn, "userArn");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final LocalLambdaRunner lambdas;
  private final String function;
  private final Assets assets;
  private final Operator operator;
  private final String token;

  private HttpApiFront(
      HttpServer server,
      LocalLambdaRunner lambdas,
      String function,
      Assets assets,
      Operator operator,
      String token) {
    this.server = server;
    this.lambdas = lambdas;
    this.function = function;
    this.assets = assets;
    this.operator = operator;
    this.token = token;
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    server.createContext("/", this::serve);
    server.start();
  }

  /**
   * Starts the front on a loopback port ({@code 0}: any free one).
   *
   * @param function the function every {@code /api/} request is sent to
   */
  public static HttpApiFront start(
      int port, LocalLambdaRunner lambdas, String function, Assets assets, Operator operator) {
    int claimed = LoopbackPort.claim(port, "console HTTP API", "console port");
    byte[] secret = new byte[24];
    new SecureRandom().nextBytes(secret);
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(LoopbackPort.HOST, claimed), 0);
      return new HttpApiFront(
          server,
          Objects.requireNonNull(lambdas, "lambdas"),
          Objects.requireNonNull(function, "function"),
          Objects.requireNonNull(assets, "assets"),
          Objects.requireNonNull(operator, "operator"),
          HexFormat.of().formatHex(secret));
    } catch (IOException e) {
      throw new UncheckedIOException("the console HTTP API did not start on port " + claimed, e);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The URL a person opens: it carries the token once, the page keeps it as a cookie. */
  public URI url() {
    return URI.create("http://" + LoopbackPort.HOST + ":" + port() + "/?token=" + token);
  }

  /** The token API clients other than the browser send as {@code Authorization: Bearer}. */
  public String token() {
    return token;
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      if (path.equals("/api") || path.startsWith("/api/")) {
        api(exchange);
      } else {
        asset(exchange, path);
      }
    } catch (RuntimeException e) {
      // A failure of the front itself: the browser gets a JSON answer, not a dropped connection.
      send(exchange, 500, "application/json", refusal("front", e.toString()));
    }
  }

  private void api(HttpExchange exchange) throws IOException {
    if (!authorized(exchange)) {
      send(
          exchange,
          401,
          "application/json",
          refusal(
              "token",
              "must be the console's token: open the URL `protomolt up` printed, or send"
                  + " Authorization: Bearer <token>"));
      return;
    }
    byte[] body = exchange.getRequestBody().readAllBytes();
    LambdaResult result = lambdas.invoke(function, event(exchange, body).toString());
    switch (result) {
      case LambdaResult.Success success -> respond(exchange, success.payload());
      case LambdaResult.Failure failure ->
          // API Gateway answers a failed integration with 500 and no detail; locally the error
          // type and message are what a developer needs, so they are in the body.
          send(
              exchange,
              500,
              "application/json",
              refusal(function, failure.errorType() + ": " + failure.errorMessage()));
    }
  }

  private boolean authorized(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null && header.equals("Bearer " + token)) {
      return true;
    }
    List<String> cookies = exchange.getRequestHeaders().get("Cookie");
    if (cookies == null) {
      return false;
    }
    for (String line : cookies) {
      for (String cookie : line.split(";")) {
        if (cookie.trim().equals(COOKIE + "=" + token)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The payload format 2.0 event API Gateway would send for this request. */
  private ObjectNode event(HttpExchange exchange, byte[] body) {
    URI uri = exchange.getRequestURI();
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("routeKey", "$default");
    event.put("rawPath", uri.getRawPath());
    event.put("rawQueryString", uri.getRawQuery() == null ? "" : uri.getRawQuery());
    ObjectNode headers = event.putObject("headers");
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(Locale.ROOT);
              // The token never reaches the function, as SigV4 headers are not its business.
              if (!lower.equals("authorization") && !lower.equals("cookie")) {
                headers.put(lower, String.join(",", values));
              }
            });
    if (uri.getRawQuery() != null && !uri.getRawQuery().isEmpty()) {
      ObjectNode query = event.putObject("queryStringParameters");
      for (String pair : uri.getRawQuery().split("&")) {
        int eq = pair.indexOf('=');
        String name =
            URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value =
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        // API Gateway joins repeated parameters with commas.
        JsonNode seen = query.get(name);
        query.put(name, seen == null ? value : seen.asText() + "," + value);
      }
    }
    ObjectNode context = event.putObject("requestContext");
    context.put("accountId", operator.accountId());
    context.put("apiId", "local");
    context.put("requestId", UUID.randomUUID().toString());
    context.put("stage", "$default");
    context.put("timeEpoch", Instant.now().toEpochMilli());
    ObjectNode http = context.putObject("http");
    http.put("method", method);
    http.put("path", uri.getRawPath());
    http.put("protocol", exchange.getProtocol());
    http.put("sourceIp", exchange.getRemoteAddress().getAddress().getHostAddress());
    ObjectNode iam = context.putObject("authorizer").putObject("iam");
    iam.put("accountId", operator.accountId());
    iam.put("userArn", operator.userArn());
    if (body.length > 0) {
      event.put("body", Base64.getEncoder().encodeToString(body));
      event.put("isBase64Encoded", true);
    } else {
      event.put("isBase64Encoded", false);
    }
    return event;
  }

  private static void respond(HttpExchange exchange, String payload) throws IOException {
    JsonNode reply;
    try {
      reply = JSON.readTree(payload);
    } catch (IOException e) {
      reply = null;
    }
    if (reply == null || !reply.isObject() || !reply.path("statusCode").isInt()) {
      // API Gateway's payload 2.0 treats any other reply as a 200 JSON body.
      send(exchange, 200, "application/json", payload.getBytes(StandardCharsets.UTF_8));
      return;
    }
    reply
        .path("headers")
        .properties()
        .forEach(h -> exchange.getResponseHeaders().set(h.getKey(), h.getValue().asText()));
    String text = reply.path("body").asText("");
    byte[] body =
        reply.path("isBase64Encoded").asBoolean(false)
            ? Base64.getDecoder().decode(text)
            : text.getBytes(StandardCharsets.UTF_8);
    String type = reply.path("headers").path("content-type").asText("application/json");
    send(exchange, reply.path("statusCode").asInt(), type, body);
  }

  private void asset(HttpExchange exchange, String rawPath) throws IOException {
    if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
      send(
          exchange,
          405,
          "application/json",
          refusal("method", "must be GET for the console's pages"));
      return;
    }
    String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8).replaceFirst("^/+", "");
    if (path.contains("..")) {
      send(exchange, 404, "application/json", refusal("path", "must not leave the site root"));
      return;
    }
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null && query.startsWith("token=")) {
      String given = query.substring("token=".length());
      if (given.equals(token)) {
        exchange
            .getResponseHeaders()
            .add("Set-Cookie", COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
      }
    }
    Optional<byte[]> found = path.isEmpty() ? Optional.empty() : assets.read(path);
    String served = path;
    if (found.isEmpty()) {
      served = "index.html";
      found = assets.read(served);
    }
    if (found.isEmpty()) {
      send(
          exchange,
          404,
          "application/json",
          refusal("path", "/" + path + " is no console asset, and the console has no index.html"));
      return;
    }
    int dot = served.lastIndexOf('.');
    String type =
        TYPES.getOrDefault(dot < 0 ? "" : served.substring(dot + 1), "application/octet-stream");
    send(exchange, 200, type, found.get());
  }

  private static byte[] refusal(String field, String rule) {
    ObjectNode out = JSON.createObjectNode();
    out.put("field", field);
    out.put("rule", rule);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    exchange.getResponseBody().write(body);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
