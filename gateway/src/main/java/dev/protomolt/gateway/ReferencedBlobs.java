package dev.protomolt.gateway;

import com.google.protobuf.ByteString;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import java.util.Objects;

/**
 * Level 2 hydration of a blob the store keeps only as a storage reference (an intake copy points at
 * the uploaded object instead of copying it, decision 0952): the bytes are read from the named
 * drive's bucket and put inline, so a module that declares {@code needs_blob_content} sees data.
 * The reference itself is dropped from the hydrated copy only; the stored document keeps it.
 */
public final class ReferencedBlobs {

  private final DriveDirectory drives;
  private final BlobStore blobs;

  public ReferencedBlobs(DriveDirectory drives, BlobStore blobs) {
    this.drives = Objects.requireNonNull(drives, "drives");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
  }

  /** {@code document} with every storage-referenced blob replaced by its bytes. */
  public PipeDoc inline(PipeDoc document) {
    if (!document.hasBlobBag()) {
      return document;
    }
    BlobBag bag = document.getBlobBag();
    BlobBag.Builder resolved = bag.toBuilder();
    switch (bag.getBlobDataCase()) {
      case BLOB -> resolved.setBlob(inline(bag.getBlob(), "blob_bag.blob"));
      case BLOBS -> {
        var list = resolved.getBlobsBuilder();
        for (int i = 0; i < list.getBlobCount(); i++) {
          list.setBlob(i, inline(list.getBlob(i), "blob_bag.blobs.blob[" + i + "]"));
        }
      }
      case BLOBDATA_NOT_SET -> {
        return document;
      }
    }
    return document.toBuilder().setBlobBag(resolved).build();
  }

  private Blob inline(Blob blob, String field) {
    if (blob.getContentCase() != Blob.ContentCase.STORAGE_REF) {
      return blob;
    }
    FileStorageReference ref = blob.getStorageRef();
    if (ref.getObjectKey().isBlank()) {
      throw new HydrationFailedException(
          field + ".storage_ref.object_key: must not be blank", true, null);
    }
    Drive drive =
        drives
            .findByName(ref.getDriveName())
            .orElseThrow(
                () ->
                    new HydrationFailedException(
                        field
                            + ".storage_ref.drive_name: no drive named '"
                            + ref.getDriveName()
                            + "'",
                        true,
                        null));
    byte[] bytes;
    try {
      bytes = blobs.get(new ObjectAddress(drive, ref.getObjectKey()));
    } catch (RuntimeException e) {
      // Missing objects and unreachable S3 alike: the record stays and the unit is retried.
      throw new HydrationFailedException(
          field
              + ".storage_ref: cannot read "
              + ref.getObjectKey()
              + " from drive "
              + ref.getDriveName()
              + ": "
              + e.getMessage(),
          false,
          e);
    }
    return blob.toBuilder().setData(ByteString.copyFrom(bytes)).build();
  }
}
