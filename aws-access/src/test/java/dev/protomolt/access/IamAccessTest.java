package dev.protomolt.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The IAM paths a deployed function or gateway takes, short of AWS itself: the RDS token is signed for the
 * proxy's host and user, and GetBootstrapBrokers is a SigV4-signed call (answered here by a
 * loopback server standing in for MSK's API).
 */
class IamAccessTest {

  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(
          AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"));
  private static final String CLUSTER =
      "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc-1";

  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void anRdsTokenIsASignedConnectRequestForTheProxyHostAndUser() {
    DatabaseAccess.RdsIam access =
        new DatabaseAccess.RdsIam(
            "proxy.example.eu-west-1.rds.amazonaws.com",
            5432,
            "protomolt",
            "protomolt",
            "eu-west-1");
    String token = RdsIamDataSource.tokens(access, CREDENTIALS).get();
    assertThat(token)
        .startsWith("proxy.example.eu-west-1.rds.amazonaws.com:5432/?")
        .contains("Action=connect")
        .contains("DBUser=protomolt")
        .contains("X-Amz-Credential=AKIDEXAMPLE%2F")
        .contains("%2Feu-west-1%2Frds-db%2Faws4_request")
        .contains("X-Amz-Signature=");
  }

  @Test
  void getBootstrapBrokersIsASignedCallForTheClustersIamListener() throws Exception {
    AtomicReference<String> path = new AtomicReference<>();
    AtomicReference<String> authorization = new AtomicReference<>();
    serve(
        200,
        "{\"BootstrapBrokerStringSaslIam\":\"b-1.msk:9098,b-2.msk:9098\"}",
        path,
        authorization);

    String servers = MskBootstrap.servers(new BrokerAccess.MskIam(CLUSTER), msk());

    assertThat(servers).isEqualTo("b-1.msk:9098,b-2.msk:9098");
    assertThat(path.get())
        .isEqualTo(
            "/v1/clusters/"
                + CLUSTER.replace(":", "%3A").replace("/", "%2F")
                + "/bootstrap-brokers");
    assertThat(authorization.get())
        .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
        .contains("/eu-west-1/kafka/aws4_request");
  }

  @Test
  void aClusterWithoutAnIamListenerOrARefusalIsNamed() throws Exception {
    serve(
        200,
        "{\"BootstrapBrokerStringTls\":\"b-1.msk:9094\"}",
        new AtomicReference<>(),
        new AtomicReference<>());
    assertThatThrownBy(() -> msk().iamBrokers(CLUSTER))
        .hasMessage(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: cluster "
                + CLUSTER
                + " has no IAM listener"
                + " (GetBootstrapBrokers returned no BootstrapBrokerStringSaslIam)");
    server.stop(0);
    serve(
        403, "{\"message\":\"not authorized\"}", new AtomicReference<>(), new AtomicReference<>());
    assertThatThrownBy(() -> msk().iamBrokers(CLUSTER))
        .hasMessageContaining("answered 403")
        .hasMessageContaining("not authorized");
  }

  private MskBootstrap msk() {
    return new MskBootstrap(
        UrlConnectionHttpClient.create(),
        CREDENTIALS,
        "eu-west-1",
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
  }

  private void serve(
      int status, String body, AtomicReference<String> path, AtomicReference<String> authorization)
      throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          path.set(exchange.getRequestURI().getRawPath());
          authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
  }
}
