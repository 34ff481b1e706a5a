package dev.protomolt.repository.s3;

import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import java.util.Objects;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link BlobStore} on S3 (or any S3-compatible store), each drive through its own client. */
public final class S3BlobStore implements BlobStore {

  private static final String CONTENT_TYPE = "application/x-protobuf";

  private final S3Clients clients;

  public S3BlobStore(S3Clients clients) {
    this.clients = Objects.requireNonNull(clients, "clients");
  }

  @Override
  public void put(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    PutObjectRequest.Builder request = PutObjectRequest.builder()
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

  @Override
  public byte[] get(ObjectAddress from) {
    try {
      return clients.forDrive(from.drive())
          .getObjectAsBytes(GetObjectRequest.builder()
              .bucket(from.drive().bucket()).key(from.key()).build())
          .asByteArray();
    } catch (NoSuchKeyException e) {
      throw new ObjectMissingException(from, e);
    } catch (S3Exception e) {
      throw e.statusCode() == 404 ? new ObjectMissingException(from, e) : e;
    }
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
      client.copyObject(CopyObjectRequest.builder()
          .sourceBucket(from.drive().bucket()).sourceKey(from.key())
          .destinationBucket(to.drive().bucket()).destinationKey(to.key())
          .build());
      return CopyMode.SERVER_SIDE;
    } catch (NoSuchKeyException e) {
      throw new ObjectMissingException(from, e);
    } catch (S3Exception e) {
      throw e.statusCode() == 404 ? new ObjectMissingException(from, e) : e;
    }
  }
}
