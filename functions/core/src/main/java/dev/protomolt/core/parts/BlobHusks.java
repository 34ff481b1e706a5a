package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import java.util.ArrayList;
import java.util.List;

/**
 * Settlement after successful indexing keeps what a source blob was and drops what it contained:
 * each blob keeps its id, type, name, size, checksum and metadata, and loses its inline bytes and
 * its pointer to a raw object in storage. The raw objects so released are returned so the caller
 * can delete them; each husk keeps the released pointer as its {@code source_receipt}, never as
 * content, so a replay can fetch that same object again if it still exists (decision 1524).
 */
public final class BlobHusks {

  private BlobHusks() {}

  /**
   * @param husk the BLOBS fragment with every blob emptied of content
   * @param rawObjects the storage objects the blobs pointed at, which nothing references any more
   */
  public record Husk(PipeDoc husk, List<FileStorageReference> rawObjects) {
    public Husk {
      rawObjects = List.copyOf(rawObjects);
    }
  }

  /** The husk of a BLOBS fragment (or of any document: only its blob bag changes). */
  public static Husk of(PipeDoc blobsFragment) {
    if (!blobsFragment.hasBlobBag()) {
      return new Husk(blobsFragment, List.of());
    }
    List<FileStorageReference> raw = new ArrayList<>();
    BlobBag bag = blobsFragment.getBlobBag();
    BlobBag.Builder husked = bag.toBuilder();
    switch (bag.getBlobDataCase()) {
      case BLOB -> husked.setBlob(husk(bag.getBlob(), raw));
      case BLOBS -> {
        var blobs = bag.getBlobs().toBuilder();
        for (int i = 0; i < blobs.getBlobCount(); i++) {
          blobs.setBlob(i, husk(blobs.getBlob(i), raw));
        }
        husked.setBlobs(blobs);
      }
      case BLOBDATA_NOT_SET -> {}
    }
    return new Husk(blobsFragment.toBuilder().setBlobBag(husked).build(), raw);
  }

  private static Blob husk(Blob blob, List<FileStorageReference> raw) {
    Blob.Builder b = blob.toBuilder();
    switch (blob.getContentCase()) {
      case DATA -> {
        if (b.getSizeBytes() == 0) {
          // The size is part of what the husk proves, so an unstated one is recorded from the
          // bytes.
          b.setSizeBytes(blob.getData().size());
        }
      }
      case STORAGE_REF -> {
        raw.add(blob.getStorageRef());
        b.setSourceReceipt(blob.getStorageRef());
      }
      case CONTENT_NOT_SET -> {}
    }
    return b.clearContent().build();
  }
}
