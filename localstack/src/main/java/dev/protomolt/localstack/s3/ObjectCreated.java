package dev.protomolt.localstack.s3;

import java.time.Instant;
import java.util.Objects;

/**
 * One object that came to exist in a bucket, as S3 reports it in an event notification.
 *
 * @param eventName the S3 event name without the {@code ObjectCreated:} prefix's namespace, e.g.
 *     {@code ObjectCreated:Put}, {@code ObjectCreated:Copy},
 *     {@code ObjectCreated:CompleteMultipartUpload}
 * @param sequence a number that grows with every creation the local cloud sees; S3's
 *     {@code sequencer} is its zero-padded hex form, so later events sort after earlier ones
 */
public record ObjectCreated(
    long sequence,
    String eventName,
    String bucket,
    String key,
    long size,
    String eTag,
    Instant eventTime) {

  public static final String PUT = "ObjectCreated:Put";
  public static final String COPY = "ObjectCreated:Copy";
  public static final String COMPLETE_MULTIPART_UPLOAD = "ObjectCreated:CompleteMultipartUpload";

  public ObjectCreated {
    Objects.requireNonNull(eventName, "eventName");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(eventTime, "eventTime");
    eTag = eTag == null ? "" : stripQuotes(eTag);
  }

  /** S3's {@code sequencer}: hex, fixed width, so string order is event order per key. */
  public String sequencer() {
    return String.format("%016X", sequence);
  }

  private static String stripQuotes(String tag) {
    // Event notifications carry the bare hex ETag, while HTTP responses quote it.
    return tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")
        ? tag.substring(1, tag.length() - 1)
        : tag;
  }
}
