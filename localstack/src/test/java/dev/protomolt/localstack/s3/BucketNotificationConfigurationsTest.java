package dev.protomolt.localstack.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalS3;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.FilterRule;
import software.amazon.awssdk.services.s3.model.FilterRuleName;
import software.amazon.awssdk.services.s3.model.LambdaFunctionConfiguration;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code PutBucketNotificationConfiguration} and {@code GetBucketNotificationConfiguration} from
 * the SDK against the local S3, and the rules they write firing on the next upload.
 */
class BucketNotificationConfigurationsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INTAKE_ARN =
      "arn:aws:lambda:us-east-1:000000000000:function:protomolt-local-intake:live";

  @TempDir Path data;
  private final LocalLambdaRunner lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
  private final List<String> delivered = new CopyOnWriteArrayList<>();
  private S3Notifier notifier;
  private LocalS3 s3;
  private S3Client client;

  @BeforeEach
  void start() {
    lambdas.register(
        "protomolt-local-intake",
        (event, context) -> {
          delivered.add(JSON.readTree(event).at("/Records/0/s3/object/key").asText());
          return "{}";
        });
    s3 = startS3();
    client = client("k", "secret");
  }

  private LocalS3 startS3() {
    notifier =
        new S3Notifier(
            data.resolve("journal"),
            lambdas,
            "us-east-1",
            Clock.systemUTC(),
            pause -> {},
            Duration.ofMillis(1));
    return LocalS3.start(
        data.resolve("s3"),
        0,
        "k",
        "secret",
        List.of("intake"),
        notifier,
        id -> id.equals("AKIAFUNCTION") ? Optional.of("fn-secret") : Optional.empty(),
        new BucketNotificationConfigurations(
            data.resolve("configs"), notifier, name -> lambdas.functionNames().contains(name)));
  }

  private S3Client client(String id, String secret) {
    return S3Client.builder()
        .endpointOverride(s3.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(id, secret)))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  @AfterEach
  void stop() {
    client.close();
    s3.close();
    notifier.close();
  }

  private static NotificationConfiguration rule(String id, String arn, String prefix) {
    return NotificationConfiguration.builder()
        .lambdaFunctionConfigurations(
            LambdaFunctionConfiguration.builder()
                .id(id)
                .lambdaFunctionArn(arn)
                .events(Event.S3_OBJECT_CREATED)
                .filter(
                    f ->
                        f.key(
                            k ->
                                k.filterRules(
                                    FilterRule.builder()
                                        .name(FilterRuleName.PREFIX)
                                        .value(prefix)
                                        .build())))
                .build())
        .build();
  }

  @Test
  void aRuleWrittenAtRunTimeIsReadBackAndFiresOnTheNextUpload() throws Exception {
    assertThat(
            client
                .getBucketNotificationConfiguration(b -> b.bucket("intake"))
                .lambdaFunctionConfigurations())
        .isEmpty();

    try (S3Client function = client("AKIAFUNCTION", "fn-secret")) {
      function.putBucketNotificationConfiguration(
          b ->
              b.bucket("intake")
                  .notificationConfiguration(rule("protomolt-intake-acme", INTAKE_ARN, "acme/")));
    }

    var read = client.getBucketNotificationConfiguration(b -> b.bucket("intake"));
    assertThat(read.lambdaFunctionConfigurations())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.id()).isEqualTo("protomolt-intake-acme");
              assertThat(c.lambdaFunctionArn()).isEqualTo(INTAKE_ARN);
              assertThat(c.filter().key().filterRules().getFirst().value()).isEqualTo("acme/");
            });
    client.putObject(b -> b.bucket("intake").key("acme/a.txt"), RequestBody.fromString("a"));
    client.putObject(b -> b.bucket("intake").key("other/b.txt"), RequestBody.fromString("b"));
    assertThat(notifier.deliverPending()).isEqualTo(1);
    assertThat(delivered).containsExactly("acme/a.txt");
  }

  @Test
  void writingAgainReplacesTheRulesAndARestartKeepsThem() throws Exception {
    client.putBucketNotificationConfiguration(
        b -> b.bucket("intake").notificationConfiguration(rule("one", INTAKE_ARN, "one/")));
    client.putBucketNotificationConfiguration(
        b -> b.bucket("intake").notificationConfiguration(rule("two", INTAKE_ARN, "two/")));
    assertThat(notifier.rules())
        .containsExactly(new S3NotificationRule("intake", "two/", "", "protomolt-local-intake"));

    stop();
    s3 = startS3();
    client = client("k", "secret");

    assertThat(notifier.rules())
        .containsExactly(new S3NotificationRule("intake", "two/", "", "protomolt-local-intake"));
    assertThat(
            client
                .getBucketNotificationConfiguration(b -> b.bucket("intake"))
                .lambdaFunctionConfigurations())
        .extracting(LambdaFunctionConfiguration::id)
        .containsExactly("two");
  }

  @Test
  void aDestinationThatIsNotDeployedIsRefusedAndNothingChanges() {
    client.putBucketNotificationConfiguration(
        b -> b.bucket("intake").notificationConfiguration(rule("one", INTAKE_ARN, "one/")));

    assertThatThrownBy(
            () ->
                client.putBucketNotificationConfiguration(
                    b ->
                        b.bucket("intake")
                            .notificationConfiguration(
                                rule(
                                    "ghost",
                                    "arn:aws:lambda:us-east-1:000000000000:function:ghost",
                                    "g/"))))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
              assertThat(e.awsErrorDetails().errorMessage()).contains("ghost");
            });
    assertThat(notifier.rules())
        .containsExactly(new S3NotificationRule("intake", "one/", "", "protomolt-local-intake"));
  }

  @Test
  void aMissingBucketAnUnknownKeyAndABadArnAreRefused() {
    assertThatThrownBy(() -> client.getBucketNotificationConfiguration(b -> b.bucket("nope")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket"));
    try (S3Client stranger = client("AKIASTRANGER", "x")) {
      assertThatThrownBy(() -> stranger.getBucketNotificationConfiguration(b -> b.bucket("intake")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
    }
    assertThatThrownBy(
            () ->
                client.putBucketNotificationConfiguration(
                    b ->
                        b.bucket("intake")
                            .notificationConfiguration(rule("bad", "protomolt-intake", "x/"))))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.awsErrorDetails().errorMessage()).startsWith("CloudFunction:"));
  }
}
