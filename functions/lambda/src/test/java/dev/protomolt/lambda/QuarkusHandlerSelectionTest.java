package dev.protomolt.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Boots the Quarkus app as Lambda runs it (Quarkus' mock Lambda event server plays the runtime
 * API) with {@code quarkus.lambda.handler=migrate}, and proves the named handler answers and a
 * thrown exception is reported under its class name.
 */
@QuarkusTest
class QuarkusHandlerSelectionTest {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private static HttpResponse<String> invoke(String event) throws Exception {
    int port =
        ConfigProvider.getConfig()
            .getValue("quarkus.lambda.mock-event-server.test-port", Integer.class);
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_lambda_"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(event))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theConfiguredNameSelectsTheMigrateHandler() throws Exception {
    // Delete touches neither the database nor Kafka, so no PROTOMOLT_* setting is needed.
    HttpResponse<String> reply =
        invoke(
            "{\"RequestType\":\"Delete\",\"ResourceProperties\":{\"operation\":\"migrate-schema\"}}");
    assertThat(reply.statusCode()).isEqualTo(200);
    JsonNode body = EventJson.MAPPER.readTree(reply.body());
    assertThat(body.path("PhysicalResourceId").asText()).isEqualTo("protomolt-migrate-schema");
    assertThat(body.path("Data").path("deleted").asText()).isEqualTo("nothing");
  }

  @Test
  void aThrownExceptionReachesTheRuntimeUnderItsClassName() throws Exception {
    HttpResponse<String> reply = invoke("{\"RequestType\":\"Remove\"}");
    assertThat(reply.statusCode()).isEqualTo(500);
    JsonNode error = EventJson.MAPPER.readTree(reply.body());
    assertThat(error.path("errorType").asText()).isEqualTo(InvalidEventException.class.getName());
    assertThat(error.path("errorMessage").asText())
        .isEqualTo("migrate: RequestType must be Create, Update or Delete, was 'Remove'");
  }
}
