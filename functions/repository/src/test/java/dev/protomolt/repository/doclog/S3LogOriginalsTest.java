package dev.protomolt.repository.doclog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.repository.fixtures.PostgresFixture;
import dev.protomolt.repository.fixtures.S3ProxyFixture;
import dev.protomolt.repository.s3.S3Clients;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;

/** Sealing a log stores its original in S3 (S3Proxy) with its SHA-256 on the log's row. */
class S3LogOriginalsTest {

  private static final String BUCKET = "platform-logs";

  private static PostgresFixture db;
  private static S3ProxyFixture s3;
  private static S3Clients clients;

  @BeforeAll
  static void start() {
    db = PostgresFixture.start();
    s3 = S3ProxyFixture.start("logs-key", "logs-secret");
    s3.createBucket(BUCKET);
    clients = new S3Clients(Map.of("platform", s3.settings()), List.of());
  }

  @AfterAll
  static void stop() throws Exception {
    clients.close();
    s3.close();
    db.close();
  }

  private static DocumentLog log(String bucket) {
    return new DocumentLog(
        new PostgresDocumentLogStore(db.dataSource()),
        new PostgresLogPartIndex(db.dataSource()),
        new S3LogOriginals(clients, bucket, "platform", S3ProxyFixture.REGION));
  }

  @Test
  void sealStoresTheConcatenatedAppendsWithTheirHashOnTheRow() throws Exception {
    DocumentLog log = log(BUCKET);
    LogKey key = new LogKey("acme", "jobs/build-7");
    log.open(key, WindowSpec.DEFAULT);
    StringBuilder whole = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      String line = "line " + i + " compiling module é \uD83D\uDE00 " + "x".repeat(i * 7) + "\n";
      log.append(key, line, whole.length());
      whole.append(line);
    }

    DocumentLog.Sealed sealed = log.seal(key);

    byte[] expected = whole.toString().getBytes(StandardCharsets.UTF_8);
    String expectedHash =
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(expected));
    String objectKey = "logs/acme/jobs/build-7";
    assertThat(sealed.sha256()).isEqualTo(expectedHash);
    assertThat(sealed.original()).isEqualTo("s3://" + BUCKET + "/" + objectKey);
    try (S3Client admin = s3.adminClient()) {
      byte[] stored =
          admin
              .getObjectAsBytes(GetObjectRequest.builder().bucket(BUCKET).key(objectKey).build())
              .asByteArray();
      assertThat(stored).isEqualTo(expected);
      assertThat(
              admin
                  .headObject(HeadObjectRequest.builder().bucket(BUCKET).key(objectKey).build())
                  .metadata())
          .containsEntry(S3LogOriginals.SHA256_METADATA, expectedHash);
    }
    DocumentLogState row = new PostgresDocumentLogStore(db.dataSource()).load(key).orElseThrow();
    assertThat(row.seal().sha256()).isEqualTo(expectedHash);
    assertThat(row.seal().original()).isEqualTo(sealed.original());
    S3LogOriginals originals =
        new S3LogOriginals(clients, BUCKET, "platform", S3ProxyFixture.REGION);
    assertThat(originals.get(row.seal().original())).isEqualTo(expected);
    // Sealing again answers the same seal and stores nothing new.
    assertThat(log.seal(key)).isEqualTo(sealed);
  }

  @Test
  void aSealWhoseOriginalCannotBeStoredLeavesTheLogOpenAndARetrySeals() {
    LogKey key = new LogKey("acme", "jobs/no-bucket-yet");
    DocumentLog missingBucket = log("logs-created-later");
    missingBucket.open(key, WindowSpec.DEFAULT);
    missingBucket.append(key, "first words\n", 0);

    assertThatThrownBy(() -> missingBucket.seal(key))
        .isInstanceOf(DocumentLogStorageException.class)
        .hasMessageContaining("storing the original of log acme:jobs/no-bucket-yet")
        .hasMessageContaining("s3://logs-created-later/logs/acme/jobs/no-bucket-yet");
    DocumentLogState open = missingBucket.status(key).orElseThrow();
    assertThat(open.sealed()).isFalse();
    assertThat(missingBucket.read(key)).contains("first words\n");

    s3.createBucket("logs-created-later");
    assertThat(missingBucket.seal(key).original())
        .isEqualTo("s3://logs-created-later/logs/acme/jobs/no-bucket-yet");
  }

  @Test
  void anOriginalOutsideTheConfiguredBucketIsRefusedNamingTheField() {
    S3LogOriginals originals =
        new S3LogOriginals(clients, BUCKET, "platform", S3ProxyFixture.REGION);
    assertThatThrownBy(() -> originals.get("s3://someone-else/logs/acme/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "original: \"s3://someone-else/logs/acme/x\" is not in bucket " + BUCKET);
  }
}
