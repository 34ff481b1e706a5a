package dev.protomolt.localstack.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalS3;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.lambda.Pause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The S3 notifier against a real S3Proxy, delivering in the test's thread (deliverPending) so the
 * order and the retries are deterministic. Semantics reproduced: S3 event notifications are
 * delivered at least once, carry an increasing sequencer per key, and URL-encode the key
 * ("Amazon S3 Event Notifications", event message structure); asynchronous Lambda invocation
 * retries a failed event twice ("Asynchronous invocation", error handling).
 */
class S3NotifierTest {

  private static final Instant NOW = Instant.parse("2026-11-30T01:02:03.456Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path data;
  private static LocalS3 s3;
  private static S3Client client;
  private static final ForwardingListener TO_CURRENT = new ForwardingListener();

  /** S3Proxy outlives each test; each test gets a fresh notifier behind this listener. */
  static final class ForwardingListener implements ObjectCreatedListener {
    volatile ObjectCreatedListener target = ObjectCreatedListener.NONE;

    @Override
    public void objectCreated(String eventName, String bucket, String key, long size, String eTag) {
      target.objectCreated(eventName, bucket, key, size, eTag);
    }
  }

  @BeforeAll
  static void startS3() {
    s3 =
        LocalS3.start(data.resolve("s3"), 0, "k", "secret", List.of("intake", "other"), TO_CURRENT);
    client =
        S3Client.builder()
            .endpointOverride(s3.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "secret")))
            .forcePathStyle(true)
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  @AfterAll
  static void stopS3() {
    client.close();
    s3.close();
  }

  private final LocalLambdaRunner lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
  private final List<Duration> pauses = new ArrayList<>();
  private final Pause recordingPause = pauses::add;

  private S3Notifier notifier(Path dir) {
    S3Notifier notifier =
        new S3Notifier(
            dir,
            lambdas,
            "us-east-1",
            Clock.fixed(NOW, ZoneOffset.UTC),
            recordingPause,
            Duration.ofSeconds(1));
    notifier.addRule(S3NotificationRule.allObjects("intake", "intake-fn"));
    TO_CURRENT.target = notifier;
    return notifier;
  }

  private List<JsonNode> recordInto(List<JsonNode> events) {
    lambdas.register(
        "intake-fn",
        (event, context) -> {
          events.add(JSON.readTree(event).get("Records").get(0));
          return "{}";
        });
    return events;
  }

  @Test
  void anSdkPutDeliversAnS3EventShapedAsAwsSendsIt(@TempDir Path dir) throws Exception {
    List<JsonNode> events = recordInto(new ArrayList<>());
    try (S3Notifier notifier = notifier(dir)) {
      client.putObject(
          b -> b.bucket("intake").key("docs/annual report.pdf"), RequestBody.fromString("12345"));

      assertThat(notifier.deliverPending()).isEqualTo(1);
    }

    JsonNode record = events.getFirst();
    assertThat(record.get("eventSource").asText()).isEqualTo("aws:s3");
    assertThat(record.get("eventVersion").asText()).isEqualTo("2.1");
    assertThat(record.get("eventName").asText()).isEqualTo("ObjectCreated:Put");
    assertThat(record.get("awsRegion").asText()).isEqualTo("us-east-1");
    assertThat(record.get("eventTime").asText()).isEqualTo("2026-11-30T01:02:03.456Z");
    assertThat(record.at("/s3/bucket/name").asText()).isEqualTo("intake");
    assertThat(record.at("/s3/bucket/arn").asText()).isEqualTo("arn:aws:s3:::intake");
    assertThat(record.at("/s3/object/key").asText()).isEqualTo("docs/annual+report.pdf");
    assertThat(record.at("/s3/object/size").asLong()).isEqualTo(5);
    assertThat(record.at("/s3/object/eTag").asText()).isEqualTo("827ccb0eea8a706c4c34a16891f84e7b");
    assertThat(record.at("/s3/object/sequencer").asText()).isNotBlank();
  }

  @Test
  void deliversInCreationOrderPerKeyWithIncreasingSequencers(@TempDir Path dir) throws Exception {
    List<JsonNode> events = recordInto(new ArrayList<>());
    try (S3Notifier notifier = notifier(dir)) {
      for (int i = 0; i < 3; i++) {
        int version = i;
        client.putObject(
            b -> b.bucket("intake").key("same-key"), RequestBody.fromString("v" + version));
      }
      client.putObject(b -> b.bucket("other").key("same-key"), RequestBody.fromString("x"));

      assertThat(notifier.deliverPending()).isEqualTo(3);
    }

    assertThat(events)
        .extracting(e -> e.at("/s3/object/size").asLong())
        .containsExactly(2L, 2L, 2L);
    List<String> sequencers =
        events.stream().map(e -> e.at("/s3/object/sequencer").asText()).toList();
    assertThat(sequencers).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void copyAndMultipartUploadAreCreationsToo(@TempDir Path dir) throws Exception {
    List<JsonNode> events = recordInto(new ArrayList<>());
    try (S3Notifier notifier = notifier(dir)) {
      client.putObject(b -> b.bucket("other").key("src"), RequestBody.fromString("copied"));
      client.copyObject(
          b ->
              b.sourceBucket("other")
                  .sourceKey("src")
                  .destinationBucket("intake")
                  .destinationKey("copy"));
      String uploadId = client.createMultipartUpload(b -> b.bucket("intake").key("big")).uploadId();
      String eTag =
          client
              .uploadPart(
                  b -> b.bucket("intake").key("big").uploadId(uploadId).partNumber(1),
                  RequestBody.fromString("part one"))
              .eTag();
      client.completeMultipartUpload(
          b ->
              b.bucket("intake")
                  .key("big")
                  .uploadId(uploadId)
                  .multipartUpload(
                      m -> m.parts(CompletedPart.builder().partNumber(1).eTag(eTag).build())));

      notifier.deliverPending();
    }

    assertThat(events)
        .extracting(e -> e.get("eventName").asText() + " " + e.at("/s3/object/key").asText())
        .containsExactly("ObjectCreated:Copy copy", "ObjectCreated:CompleteMultipartUpload big");
  }

  @Test
  void anEventWhoseFunctionDidNotReturnIsDeliveredAgainAfterARestart(@TempDir Path dir)
      throws Exception {
    List<String> keys = new ArrayList<>();
    lambdas.register(
        "intake-fn",
        (event, context) -> {
          keys.add(JSON.readTree(event).at("/Records/0/s3/object/key").asText());
          return "{}";
        });
    S3Notifier crashed = notifier(dir);
    client.putObject(b -> b.bucket("intake").key("survivor"), RequestBody.fromString("x"));
    assertThat(crashed.pendingCount()).isEqualTo(1);
    // The process "dies" here: nothing was delivered, so nothing was marked delivered.
    crashed.close();

    try (S3Notifier restarted = notifier(dir)) {
      assertThat(restarted.deliverPending()).isEqualTo(1);
    }
    try (S3Notifier again = notifier(dir)) {
      assertThat(again.deliverPending()).as("delivered once, never again").isZero();
    }

    assertThat(keys).containsExactly("survivor");
  }

  @Test
  void aFailingFunctionIsTriedThreeTimesThenTheEventIsRecordedAndDeliveryMovesOn(@TempDir Path dir)
      throws Exception {
    AtomicInteger calls = new AtomicInteger();
    List<String> keys = new ArrayList<>();
    lambdas.register(
        "intake-fn",
        (event, context) -> {
          String key = JSON.readTree(event).at("/Records/0/s3/object/key").asText();
          if (key.equals("poison")) {
            calls.incrementAndGet();
            throw new IllegalStateException("cannot parse poison");
          }
          keys.add(key);
          return "{}";
        });
    try (S3Notifier notifier = notifier(dir)) {
      client.putObject(b -> b.bucket("intake").key("poison"), RequestBody.fromString("x"));
      client.putObject(b -> b.bucket("intake").key("fine"), RequestBody.fromString("y"));

      assertThat(notifier.deliverPending()).isEqualTo(2);
    }

    assertThat(calls.get()).isEqualTo(S3Notifier.ATTEMPTS);
    assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(keys).containsExactly("fine");
    String failed = Files.readString(dir.resolve("failed.jsonl"));
    assertThat(failed)
        .contains("\"function\":\"intake-fn\"")
        .contains("java.lang.IllegalStateException")
        .contains("cannot parse poison");
  }

  @Test
  void onlyMatchingPrefixAndSuffixAreNotified(@TempDir Path dir) throws Exception {
    List<JsonNode> events = recordInto(new ArrayList<>());
    try (S3Notifier notifier =
        new S3Notifier(
            dir,
            lambdas,
            "us-east-1",
            Clock.fixed(NOW, ZoneOffset.UTC),
            recordingPause,
            Duration.ofSeconds(1))) {
      notifier.addRule(new S3NotificationRule("intake", "in/", ".json", "intake-fn"));
      TO_CURRENT.target = notifier;
      client.putObject(b -> b.bucket("intake").key("in/a.json"), RequestBody.fromString("{}"));
      client.putObject(b -> b.bucket("intake").key("in/a.txt"), RequestBody.fromString("no"));
      client.putObject(b -> b.bucket("intake").key("out/a.json"), RequestBody.fromString("no"));

      notifier.deliverPending();
    }

    assertThat(events)
        .extracting(e -> e.at("/s3/object/key").asText())
        .containsExactly("in/a.json");
  }
}
