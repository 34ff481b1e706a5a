package dev.protomolt.localstack.sts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.identity.CallerToken;
import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The local STS over a real socket, fed requests presigned by the SDK's own SigV4 signer (through
 * the client credentials the gateway's callers use): a registered key gets its principal's ARN,
 * and every way a request can be wrong gets STS's own error.
 */
class LocalStsTest {

  private static final String ROLE = "arn:aws:iam::000000000000:role/protomolt-module-parser";
  private static final String AUDIENCE = "protomolt-test-gateway";
  private final PrincipalRegistry iam = new PrincipalRegistry();
  private final HttpClient http = HttpClient.newHttpClient();
  private LambdaApiServer server;
  private URI endpoint;

  @BeforeEach
  void start() throws Exception {
    iam.register("parser-key", "parser-secret", new IamPrincipal("parser", ROLE, List.of()));
    server = LambdaApiServer.start(0, new FunctionRegistry(), new LocalSts(iam, Clock.systemUTC()));
    endpoint = server.endpoint();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aRegisteredKeyGetsItsPrincipalsCallerArn() throws Exception {
    HttpResponse<String> answer = get(token("parser-key", "parser-secret", Clock.systemUTC()));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body())
        .contains(
            "<Arn>arn:aws:sts::000000000000:assumed-role/protomolt-module-parser/parser</Arn>")
        .contains("<Account>000000000000</Account>");
  }

  @Test
  void aWrongSecretIsSignatureDoesNotMatch() throws Exception {
    HttpResponse<String> answer = get(token("parser-key", "not-the-secret", Clock.systemUTC()));

    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>SignatureDoesNotMatch</Code>");
  }

  @Test
  void anUnknownKeyIsInvalidClientTokenId() throws Exception {
    HttpResponse<String> answer = get(token("nobody", "whatever", Clock.systemUTC()));

    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>InvalidClientTokenId</Code>");
  }

  @Test
  void anExpiredRequestIsRefused() throws Exception {
    Clock past = Clock.fixed(Instant.now().minus(Duration.ofMinutes(16)), ZoneOffset.UTC);
    HttpResponse<String> answer = get(token("parser-key", "parser-secret", past));

    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>SignatureDoesNotMatch</Code>", "Signature expired");
  }

  @Test
  void aChangedParameterBreaksTheSignature() throws Exception {
    String query = token("parser-key", "parser-secret", Clock.systemUTC());
    HttpResponse<String> answer = get(query.replace("Version=2011-06-15", "Version=2011-06-16"));

    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>SignatureDoesNotMatch</Code>");
  }

  @Test
  void aTokenForwardedByAnotherGatewayOrWithoutTheAudienceHeaderBreaksTheSignature()
      throws Exception {
    String query = token("parser-key", "parser-secret", Clock.systemUTC());
    assertThat(query).contains("X-Amz-SignedHeaders=host%3B" + CallerToken.AUDIENCE_HEADER);

    HttpResponse<String> elsewhere = getFor("protomolt-other-gateway", query);
    assertThat(elsewhere.statusCode()).isEqualTo(403);
    assertThat(elsewhere.body()).contains("<Code>SignatureDoesNotMatch</Code>");

    HttpResponse<String> bare = getFor(null, query);
    assertThat(bare.statusCode()).isEqualTo(403);
    assertThat(bare.body()).contains("<Code>SignatureDoesNotMatch</Code>");
  }

  @Test
  void anUnsignedRequestIsMissingAuthenticationToken() throws Exception {
    HttpResponse<String> answer = get("Action=GetCallerIdentity&Version=2011-06-15");

    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>MissingAuthenticationToken</Code>");
  }

  @Test
  void lambdasApiStillAnswersBesideIt() throws Exception {
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(endpoint.resolve("/2015-03-31/functions/")).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("Functions");
  }

  private String token(String key, String secret, Clock clock) {
    GatewayCallCredentials credentials =
        new GatewayCallCredentials(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)),
            endpoint,
            "us-east-1",
            AUDIENCE,
            clock);
    return CallerToken.decode(credentials.token());
  }

  /** The query as a gateway named {@link #AUDIENCE} forwards it. */
  private HttpResponse<String> get(String query) throws Exception {
    return getFor(AUDIENCE, query);
  }

  private HttpResponse<String> getFor(String audience, String query) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint + "/?" + query));
    if (audience != null) {
      request.header(CallerToken.AUDIENCE_HEADER, audience);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
