package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.DriveProvider;
import java.util.Objects;

/**
 * A bucket binding for one account: where that account's copies of one kind live, and which
 * credentials reach them. Two drives with different credentials never share an S3 client.
 *
 * @param name {@code <accountId>:intake} or {@code <accountId>:pipeline}
 * @param prefix key prefix inside the bucket, empty or ending in {@code /}
 * @param credentialsRef name of the credentials configuration, never the secret itself
 */
public record Drive(
    String name,
    String accountId,
    DriveKind kind,
    String bucket,
    String prefix,
    String region,
    String credentialsRef,
    DriveProvider provider) {

  public Drive {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(provider, "provider");
    if (accountId == null || accountId.isBlank()) {
      throw new IllegalArgumentException("drive account_id must not be blank");
    }
    if (!kind.driveName(accountId).equals(name)) {
      throw new IllegalArgumentException(
          "drive name must be " + kind.driveName(accountId) + " but was " + name);
    }
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("drive " + name + ": bucket must not be blank");
    }
    if (region == null || region.isBlank()) {
      throw new IllegalArgumentException("drive " + name + ": region must not be blank");
    }
    prefix = prefix == null ? "" : prefix;
    if (!prefix.isEmpty() && !prefix.endsWith("/")) {
      prefix = prefix + "/";
    }
    credentialsRef = credentialsRef == null ? "" : credentialsRef;
  }

  /** The address of {@code relativeKey} on this drive, the drive's prefix applied. */
  public ObjectAddress address(String relativeKey) {
    return new ObjectAddress(this, prefix + relativeKey);
  }
}
