package dev.protomolt.repository.s3;

import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectExistsException;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.StoredObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link BlobStore} on S3 (or any S3-compatible store), each drive through its own client. */
public final class S3BlobStore implements BlobStore {

  private static final String CONTENT_TYPE = "application/x-protobuf";

  /** The most keys one DeleteObjects request may name (an S3 limit). */
  public static final int DELETE_BATCH = 1000;

  private final S3Clients clients;

  public S3BlobStore(S3Clients clients) {
    this.clients = Objects.requireNonNull(clients, "clients");
  }

  @Override
  public void put(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(to.drive().bucket())
            .key(to.key())
            .contentType(CONTENT_TYPE)
            .contentLength((long) bytes.length);
    if (verifyChecksum) {
      // The SDK computes SHA-256 over the bytes it sends and the store refuses the object if the
      // bytes it received hash differently.
      request.checksumAlgorithm(ChecksumAlgorithm.SHA256);
    }
    clients.forDrive(to.drive()).putObject(request.build(), RequestBody.fromBytes(bytes));
  }

  /**
   * A PUT with {@code If-None-Match: *}, which S3 (and S3Proxy) refuse with 412 when the key is
   * taken. A refusal is then told apart from a retried PUT of ours that had landed by comparing
   * the stored bytes: equal bytes are success, anything else is {@link ObjectExistsException}.
   */
  @Override
  public void create(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(to.drive().bucket())
            .key(to.key())
            .contentType(CONTENT_TYPE)
            .contentLength((long) bytes.length)
            .ifNoneMatch("*");
    if (verifyChecksum) {
      request.checksumAlgorithm(ChecksumAlgorithm.SHA256);
    }
    try {
      clients.forDrive(to.drive()).putObject(request.build(), RequestBody.fromBytes(bytes));
    } catch (S3Exception e) {
      if (e.statusCode() != 412) {
        throw e;
      }
      byte[] there;
      try {
        there = get(to);
      } catch (ObjectMissingException gone) {
        // Refused, then deleted before we looked: nothing of ours is there, so say so.
        throw new ObjectExistsException(to, e);
      }
      if (!Arrays.equals(there, bytes)) {
        throw new ObjectExistsException(to, e);
      }
    }
  }

  @Override
  public byte[] get(ObjectAddress from) {
    try {
      return clients
          .forDrive(from.drive())
          .getObjectAsBytes(
              GetObjectRequest.builder().bucket(from.drive().bucket()).key(from.key()).build())
          .asByteArray();
    } catch (NoSuchKeyException e) {
      throw new ObjectMissingException(from, e);
    } catch (S3Exception e) {
      throw e.statusCode() == 404 ? new ObjectMissingException(from, e) : e;
    }
  }

  /**
   * Deletes with {@code DeleteObjects}: addresses are grouped by bucket and client (each drive's
   * own credentials), and each group is sent in rounds of at most {@value #DELETE_BATCH} keys, the
   * most one request may name.
   */
  @Override
  public List<ObjectAddress> deleteAll(List<ObjectAddress> addresses) {
    Map<S3Client, Map<String, List<ObjectAddress>>> groups = new LinkedHashMap<>();
    for (ObjectAddress a : addresses) {
      groups
          .computeIfAbsent(clients.forDrive(a.drive()), c -> new LinkedHashMap<>())
          .computeIfAbsent(a.drive().bucket(), b -> new ArrayList<>())
          .add(a);
    }
    List<ObjectAddress> failed = new ArrayList<>();
    groups.forEach(
        (client, byBucket) ->
            byBucket.forEach(
                (bucket, group) -> {
                  for (int from = 0; from < group.size(); from += DELETE_BATCH) {
                    List<ObjectAddress> round =
                        group.subList(from, Math.min(group.size(), from + DELETE_BATCH));
                    Map<String, ObjectAddress> byKey = new LinkedHashMap<>();
                    round.forEach(a -> byKey.put(a.key(), a));
                    DeleteObjectsResponse response =
                        client.deleteObjects(
                            DeleteObjectsRequest.builder()
                                .bucket(bucket)
                                .delete(
                                    Delete.builder()
                                        .quiet(true)
                                        .objects(
                                            byKey.keySet().stream()
                                                .map(k -> ObjectIdentifier.builder().key(k).build())
                                                .toList())
                                        .build())
                                .build());
                    for (S3Error error : response.errors()) {
                      // S3 reports a key that was already gone as deleted; anything it lists here
                      // was not.
                      if (!"NoSuchKey".equals(error.code())) {
                        failed.add(byKey.get(error.key()));
                      }
                    }
                  }
                }));
    return failed;
  }

  @Override
  public void list(Drive drive, Consumer<StoredObject> each) {
    ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(drive.bucket());
    if (!drive.prefix().isEmpty()) {
      request.prefix(drive.prefix());
    }
    clients
        .forDrive(drive)
        .listObjectsV2Paginator(request.build())
        .contents()
        .forEach(o -> each.accept(new StoredObject(o.key(), o.lastModified())));
  }

  @Override
  public CopyMode copy(ObjectAddress from, ObjectAddress to) {
    if (!clients.shareClient(from.drive(), to.drive())) {
      // Different credentials cannot authorize one server-side copy: read with the source
      // drive's client, write with the target's.
      put(to, get(from), false);
      return CopyMode.THROUGH_CALLER;
    }
    S3Client client = clients.forDrive(to.drive());
    try {
      client.copyObject(
          CopyObjectRequest.builder()
              .sourceBucket(from.drive().bucket())
              .sourceKey(from.key())
              .destinationBucket(to.drive().bucket())
              .destinationKey(to.key())
              .build());
      return CopyMode.SERVER_SIDE;
    } catch (NoSuchKeyException e) {
      throw new ObjectMissingException(from, e);
    } catch (S3Exception e) {
      throw e.statusCode() == 404 ? new ObjectMissingException(from, e) : e;
    }
  }
}
