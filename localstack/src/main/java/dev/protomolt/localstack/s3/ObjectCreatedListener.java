package dev.protomolt.localstack.s3;

/** Told about every object created through the local S3 endpoint, after the write is durable. */
@FunctionalInterface
public interface ObjectCreatedListener {

  /** Receives the bucket, key, size and ETag of the new object; the sequence is assigned later. */
  void objectCreated(String eventName, String bucket, String key, long size, String eTag);

  ObjectCreatedListener NONE = (eventName, bucket, key, size, eTag) -> {};
}
