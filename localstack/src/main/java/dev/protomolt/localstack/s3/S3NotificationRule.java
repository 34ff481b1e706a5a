package dev.protomolt.localstack.s3;

import java.util.Objects;

/**
 * One bucket notification: objects created in {@code bucket} whose key starts with
 * {@code prefix} and ends with {@code suffix} invoke {@code functionName}, like an S3
 * {@code LambdaFunctionConfiguration} with {@code s3:ObjectCreated:*} and prefix/suffix filters.
 */
public record S3NotificationRule(String bucket, String prefix, String suffix, String functionName) {

  public S3NotificationRule {
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("bucket must not be blank");
    }
    if (functionName == null || functionName.isBlank()) {
      throw new IllegalArgumentException("functionName must not be blank");
    }
    prefix = Objects.requireNonNullElse(prefix, "");
    suffix = Objects.requireNonNullElse(suffix, "");
  }

  /** Every object created in {@code bucket}. */
  public static S3NotificationRule allObjects(String bucket, String functionName) {
    return new S3NotificationRule(bucket, "", "", functionName);
  }

  public boolean matches(String createdBucket, String key) {
    return bucket.equals(createdBucket) && key.startsWith(prefix) && key.endsWith(suffix);
  }
}
