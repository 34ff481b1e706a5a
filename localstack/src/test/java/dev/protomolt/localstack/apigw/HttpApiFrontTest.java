package dev.protomolt.localstack.apigw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's local HTTP front over real sockets: requests become payload 2.0 events for the
 * function (here one that answers with the event it got), the token gates the API before any
 * invocation, and static assets are served with the page as the fallback.
 */
class HttpApiFrontTest {

  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpApiFront.Operator OPERATOR =
      new HttpApiFront.Operator("000000000000", "arn:aws:iam::000000000000:user/local-operator");

  final AtomicInteger invocations = new AtomicInteger();
  final HttpClient http = HttpClient.newHttpClient();
  LocalLambdaRunner lambdas;
  HttpApiFront front;

  @BeforeEach
  void start() {
    lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
    lambdas.register(
        "echo-api",
        (event, context) -> {
          invocations.incrementAndGet();
          ObjectNode reply = JSON.createObjectNode();
          reply.put("statusCode", 201);
          reply.putObject("headers").put("content-type", "application/json");
          reply.put("body", event);
          return reply.toString();
        });
    lambdas.register(
        "broken-api",
        (event, context) -> {
          throw new IllegalStateException("the ledger is gone");
        });
    Map<String, String> site =
        Map.of("index.html", "<html>console</html>", "assets/app.js", "console.log(1)");
    front =
        HttpApiFront.start(
            0,
            lambdas,
            "echo-api",
            path ->
                Optional.ofNullable(site.get(path)).map(s -> s.getBytes(StandardCharsets.UTF_8)),
            OPERATOR);
  }

  @AfterEach
  void stop() {
    front.close();
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  URI at(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + front.port() + pathAndQuery);
  }

  @Test
  void anApiRequestBecomesAPayload2EventWithTheOperatorsIamIdentity() throws Exception {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(at("/api/documents/d%201?accountId=acme&x=1&x=2"))
                .header("Authorization", "Bearer " + front.token())
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
    assertThat(response.statusCode()).isEqualTo(201);
    JsonNode event = JSON.readTree(response.body());
    assertThat(event.path("version").asText()).isEqualTo("2.0");
    assertThat(event.path("rawPath").asText()).isEqualTo("/api/documents/d%201");
    assertThat(event.at("/requestContext/http/method").asText()).isEqualTo("POST");
    assertThat(event.at("/queryStringParameters/accountId").asText()).isEqualTo("acme");
    assertThat(event.at("/queryStringParameters/x").asText()).isEqualTo("1,2");
    assertThat(event.at("/requestContext/authorizer/iam/userArn").asText())
        .isEqualTo(OPERATOR.userArn());
    assertThat(event.at("/requestContext/authorizer/iam/accountId").asText())
        .isEqualTo("000000000000");
    assertThat(event.path("isBase64Encoded").asBoolean()).isTrue();
    assertThat(
            new String(
                Base64.getDecoder().decode(event.path("body").asText()), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":1}");
    assertThat(event.path("headers").has("authorization"))
        .as("the token never reaches the function")
        .isFalse();
  }

  @Test
  void withoutTheTokenTheApiRefusesBeforeInvokingAnything() throws Exception {
    HttpResponse<String> none = send(HttpRequest.newBuilder(at("/api/graphs")));
    HttpResponse<String> wrong =
        send(HttpRequest.newBuilder(at("/api/graphs")).header("Authorization", "Bearer nope"));
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(JSON.readTree(none.body()).path("field").asText()).isEqualTo("token");
    assertThat(invocations).hasValue(0);
  }

  @Test
  void theConsoleUrlSetsTheCookieThatAuthorizesTheApi() throws Exception {
    HttpResponse<String> page = send(HttpRequest.newBuilder(front.url()));
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).isEqualTo("<html>console</html>");
    String cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    assertThat(cookie).isEqualTo(HttpApiFront.COOKIE + "=" + front.token());

    HttpResponse<String> api =
        send(HttpRequest.newBuilder(at("/api/graphs")).header("Cookie", cookie));
    assertThat(api.statusCode()).isEqualTo(201);
    assertThat(invocations).hasValue(1);

    HttpResponse<String> wrongToken = send(HttpRequest.newBuilder(at("/?token=guess")));
    assertThat(wrongToken.headers().firstValue("Set-Cookie")).isEmpty();
  }

  @Test
  void assetsAreServedByTypeAndUnknownPathsGetThePage() throws Exception {
    HttpResponse<String> js = send(HttpRequest.newBuilder(at("/assets/app.js")));
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/javascript");
    HttpResponse<String> route = send(HttpRequest.newBuilder(at("/designer")));
    assertThat(route.body()).isEqualTo("<html>console</html>");
    HttpResponse<String> escape = send(HttpRequest.newBuilder(at("/assets/..%2F..%2Fsecret")));
    assertThat(escape.statusCode()).isEqualTo(404);
  }

  @Test
  void aFailedFunctionIsA500NamingItsError() throws Exception {
    try (HttpApiFront broken =
        HttpApiFront.start(0, lambdas, "broken-api", path -> Optional.empty(), OPERATOR)) {
      HttpResponse<String> response =
          send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broken.port() + "/api/x"))
                  .header("Authorization", "Bearer " + broken.token()));
      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(JSON.readTree(response.body()).path("rule").asText())
          .contains("IllegalStateException")
          .contains("the ledger is gone");
    }
  }
}
