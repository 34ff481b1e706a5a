package dev.protomolt.lambda.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.proto.events.v1.DriveProvider;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 adapter against a loopback stand-in for S3's bucket notification API (S3Proxy, the local
 * cloud's S3, has none): it keeps one configuration document per bucket as S3 does, so the
 * adapter's read, add, write and read-back are exercised over the real SDK and wire format.
 */
class S3IntakeNotificationRulesTest {

  private static final String INTAKE_ARN =
      "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-dev-intake:live";
  private static final Drive INTAKE =
      new Drive(
          "acme:intake",
          "acme",
          DriveKind.INTAKE,
          "protomolt-intake",
          "_intake-copies/acme/",
          "eu-west-1",
          "platform",
          DriveProvider.DRIVE_PROVIDER_PROTOMOLT);

  /** Another owner's topic rule already on the bucket: it must survive our writes. */
  private static final String EXISTING =
      "<NotificationConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
          + "<TopicConfiguration><Id>audit</Id><Topic>arn:aws:sns:eu-west-1:123456789012:audit</Topic>"
          + "<Event>s3:ObjectRemoved:*</Event></TopicConfiguration></NotificationConfiguration>";

  private final AtomicReference<String> stored = new AtomicReference<>(EXISTING);
  private final AtomicInteger puts = new AtomicInteger();
  private final AtomicBoolean dropWrites = new AtomicBoolean();
  private HttpServer server;
  private S3Client s3;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/protomolt-intake",
        exchange -> {
          byte[] reply = new byte[0];
          if (exchange.getRequestMethod().equals("PUT")) {
            puts.incrementAndGet();
            String body =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (!dropWrites.get()) {
              stored.set(body);
            }
          } else {
            reply = stored.get().getBytes(StandardCharsets.UTF_8);
          }
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(200, reply.length == 0 ? -1 : reply.length);
          exchange.getResponseBody().write(reply);
          exchange.close();
        });
    server.start();
    s3 =
        S3Client.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
            .forcePathStyle(true)
            .region(Region.EU_WEST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
            .build();
  }

  @AfterEach
  void stop() {
    s3.close();
    server.stop(0);
  }

  @Test
  void theAccountsRuleIsAddedBesideWhatTheBucketAlreadyHasAndOnlyOnce() {
    S3IntakeNotificationRules rules = new S3IntakeNotificationRules(drive -> s3, INTAKE_ARN);
    rules.ensure(INTAKE, "acme");

    String config = stored.get();
    assertThat(config)
        .contains("<Id>protomolt-intake-acme</Id>")
        .contains("<CloudFunction>" + INTAKE_ARN + "</CloudFunction>")
        .contains("<Event>s3:ObjectCreated:*</Event>")
        .contains("<Name>Prefix</Name><Value>acme/</Value>")
        .contains("<Id>audit</Id>");
    assertThat(puts).hasValue(1);

    rules.ensure(INTAKE, "acme");
    assertThat(puts).as("a rule already there is not written again").hasValue(1);
  }

  @Test
  void aRuleThatKeepsBeingOverwrittenIsAnErrorNotASilentGap() {
    dropWrites.set(true);
    S3IntakeNotificationRules rules = new S3IntakeNotificationRules(drive -> s3, INTAKE_ARN);
    assertThatThrownBy(() -> rules.ensure(INTAKE, "acme"))
        .hasMessage(
            "intake bucket protomolt-intake: notification rule protomolt-intake-acme was written 5"
                + " times and is still missing; another writer keeps replacing the bucket's"
                + " notification configuration");
    assertThat(puts).hasValue(S3IntakeNotificationRules.ATTEMPTS);
  }
}
