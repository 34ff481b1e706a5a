package dev.protomolt.repository.s3;

import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.UploadObjects;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link UploadObjects} on S3: HeadObject for the metadata (covered by {@code s3:GetObject}),
 * the blob store's GetObject for the bytes, DeleteObject for the deletion, each through the
 * drive's own client.
 */
public final class S3UploadObjects implements UploadObjects {

  private final S3Clients clients;
  private final S3BlobStore blobs;

  public S3UploadObjects(S3Clients clients) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.blobs = new S3BlobStore(clients);
  }

  @Override
  public Optional<Map<String, String>> metadata(ObjectAddress upload) {
    try {
      Map<String, String> out = new LinkedHashMap<>();
      clients
          .forDrive(upload.drive())
          .headObject(
              HeadObjectRequest.builder().bucket(upload.drive().bucket()).key(upload.key()).build())
          .metadata()
          // S3 returns user metadata names lower-cased; S3-compatible stores may not.
          .forEach((k, v) -> out.put(k.toLowerCase(Locale.ROOT), v));
      return Optional.of(out);
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Optional<Current> current(ObjectAddress upload, String versionId) {
    HeadObjectRequest.Builder head =
        HeadObjectRequest.builder().bucket(upload.drive().bucket()).key(upload.key());
    if (!versionId.isBlank()) {
      head.versionId(versionId);
    }
    try {
      var found = clients.forDrive(upload.drive()).headObject(head.build());
      return Optional.of(
          new Current(
              found.eTag() == null ? "" : found.eTag(),
              found.versionId() == null ? "" : found.versionId(),
              found.contentLength() == null ? 0 : found.contentLength()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      // A version id S3 does not know is a 400 or 404, as a gone key is a 404.
      if (e.statusCode() == 404 || (!versionId.isBlank() && e.statusCode() == 400)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public byte[] read(ObjectAddress upload) {
    return blobs.get(upload);
  }

  @Override
  public void delete(ObjectAddress upload) {
    // S3 answers 204 for a key that is already gone, so a redelivered deletion succeeds.
    clients
        .forDrive(upload.drive())
        .deleteObject(
            DeleteObjectRequest.builder()
                .bucket(upload.drive().bucket())
                .key(upload.key())
                .build());
  }
}
