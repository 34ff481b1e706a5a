package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogOriginals;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.names.StoragePrefix;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.repository.s3.S3Clients;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Sealed logs' originals in one S3 bucket, at {@code logs/<collection>/<path>} (decision 1674).
 * Each object is the text's UTF-8 bytes, written with an SHA-256 checksum the store verifies on
 * arrival and with the log's own hash as object metadata, so {@code aws s3api head-object} shows
 * it.
 */
public final class S3LogOriginals implements LogOriginals {

  /** The object metadata key holding the hex SHA-256 of the object's bytes. */
  public static final String SHA256_METADATA = "protomolt-sha256";

  private final S3Client client;
  private final String bucket;

  /**
   * @param clients the S3 clients per credentials reference
   * @param credentialsRef the reference whose settings reach {@code bucket}
   * @param region the bucket's region
   */
  public S3LogOriginals(S3Clients clients, String bucket, String credentialsRef, String region) {
    Objects.requireNonNull(clients, "clients: must not be null");
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("bucket: must not be blank");
    }
    this.bucket = bucket;
    // S3Clients hands out clients per drive; the platform's own logs get a drive of their own
    // that only names the credentials and region.
    this.client =
        clients.forDrive(
            new Drive(
                DriveKind.PIPELINE.driveName("_logs"),
                "_logs",
                DriveKind.PIPELINE,
                bucket,
                StoragePrefix.LOG_ORIGINALS,
                region,
                credentialsRef,
                DriveProvider.DRIVE_PROVIDER_PROTOMOLT));
  }

  /** The object key of {@code key}'s original. */
  public static String objectKey(LogKey key) {
    return StoragePrefix.LOG_ORIGINALS + key.collection() + "/" + key.path();
  }

  @Override
  public String put(LogKey key, byte[] utf8, String sha256) {
    String objectKey = objectKey(key);
    try {
      client.putObject(
          PutObjectRequest.builder()
              .bucket(bucket)
              .key(objectKey)
              .contentType("text/plain; charset=utf-8")
              .contentLength((long) utf8.length)
              .checksumAlgorithm(ChecksumAlgorithm.SHA256)
              .metadata(Map.of(SHA256_METADATA, sha256))
              .build(),
          RequestBody.fromBytes(utf8));
    } catch (RuntimeException e) {
      throw new DocumentLogStorageException(
          "storing the original of log " + key + " at s3://" + bucket + "/" + objectKey, e);
    }
    return "s3://" + bucket + "/" + objectKey;
  }

  @Override
  public byte[] get(String location) {
    String prefix = "s3://" + bucket + "/";
    if (location == null || !location.startsWith(prefix)) {
      throw new IllegalArgumentException(
          "original: \""
              + location
              + "\" is not in bucket "
              + bucket
              + ", the only one this gateway reads originals from");
    }
    String objectKey = location.substring(prefix.length());
    try {
      return client
          .getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(objectKey).build())
          .asByteArray();
    } catch (NoSuchKeyException e) {
      throw new IllegalStateException(
          "original: the object " + location + " is gone from the store", e);
    } catch (RuntimeException e) {
      throw new DocumentLogStorageException("reading the original at " + location, e);
    }
  }
}
