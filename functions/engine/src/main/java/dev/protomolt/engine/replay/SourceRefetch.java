package dev.protomolt.engine.replay;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.store.UploadObjects;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.repository.PipeDocStore;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Fetches a settled intake copy's source again (decision 1524). A SOURCE_RECEIPT candidate holds
 * no bytes, only the husk of its BLOBS part, whose blob keeps the {@code source_receipt} of the
 * intake object it was released from. When that object still exists as it was (the receipt's
 * version, else the same key with the receipt's entity tag and size) a fresh intake copy naming it
 * is saved at the same address, exactly as intake saves one, and the replay starts from it. An
 * object that is gone, or that was replaced by different bytes, is not taken for the document.
 */
public final class SourceRefetch {

  /** The source is gone: no object, no such version, or no receipt to find it by. */
  public static final String MISSING = "SOURCE_MISSING";

  /** The key holds other bytes now (another entity tag or size than the receipt's). */
  public static final String CHANGED = "SOURCE_CHANGED";

  /** What the receipt check found. */
  public sealed interface Found {}

  /** The object the receipt names, as it was: a new intake copy can name it. */
  public record Same(
      String accountId,
      String datasourceId,
      String docId,
      String filename,
      FileStorageReference object)
      implements Found {}

  /** Not replayable from its source: {@link #MISSING} or {@link #CHANGED}, and why. */
  public record Lost(String verdict, String reason) implements Found {}

  private final LedgerStore ledger;
  private final DriveDirectory drives;
  private final BlobStore blobs;
  private final UploadObjects uploads;
  private final PipeDocStore store;

  public SourceRefetch(
      LedgerStore ledger,
      DriveDirectory drives,
      BlobStore blobs,
      UploadObjects uploads,
      PipeDocStore store) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.uploads = Objects.requireNonNull(uploads, "uploads");
    this.store = Objects.requireNonNull(store, "store");
  }

  /** Checks the candidate's receipt against the intake drive; reads, never writes. */
  public Found check(ReplayCandidate candidate) {
    String accountId = candidate.getDocumentRef().getAccountId();
    Optional<PipeDocRecord> row =
        ledger.find(UUID.fromString(candidate.getDocumentRef().getNodeId()));
    if (row.isEmpty()) {
      return new Lost(MISSING, "the stored state is gone");
    }
    Optional<PartManifestEntry> blobsEntry =
        row.get().manifest().getEntriesList().stream()
            .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS)
            .filter(e -> !e.getObjectKey().isBlank())
            .findFirst();
    Optional<Drive> rowDrive = drives.findByName(row.get().driveName());
    if (blobsEntry.isEmpty() || rowDrive.isEmpty()) {
      return new Lost(MISSING, "no husk of the source was kept");
    }
    Blob husk;
    try {
      BlobBag bag =
          PipeDoc.parseFrom(
                  blobs.get(new ObjectAddress(rowDrive.get(), blobsEntry.get().getObjectKey())))
              .getBlobBag();
      if (bag.getBlobDataCase() != BlobBag.BlobDataCase.BLOB) {
        return new Lost(MISSING, "an intake copy has one blob; this husk has none or several");
      }
      husk = bag.getBlob();
    } catch (ObjectMissingException | InvalidProtocolBufferException e) {
      return new Lost(MISSING, "the husk of the source cannot be read: " + e.getMessage());
    }
    if (!husk.hasSourceReceipt() || husk.getSourceReceipt().getObjectKey().isBlank()) {
      // Settled before husks kept their receipt: nothing says which object the bytes were.
      return new Lost(MISSING, "the husk keeps no receipt of its intake object");
    }
    FileStorageReference receipt = husk.getSourceReceipt();
    // Only the row's own account's drive: a receipt never reaches into another account.
    Optional<Drive> intake =
        drives.findByName(receipt.getDriveName()).filter(d -> d.accountId().equals(accountId));
    if (intake.isEmpty()) {
      return new Lost(MISSING, "drive '" + receipt.getDriveName() + "' is not this account's");
    }
    ObjectAddress at = new ObjectAddress(intake.get(), receipt.getObjectKey());
    Optional<UploadObjects.Current> now = uploads.current(at, receipt.getVersionId());
    if (now.isEmpty()) {
      return new Lost(
          MISSING,
          "intake object '"
              + receipt.getObjectKey()
              + "'"
              + (receipt.getVersionId().isBlank() ? "" : " version " + receipt.getVersionId())
              + " no longer exists");
    }
    if (!sameTag(receipt.getEtag(), now.get().etag())
        || (receipt.getSizeBytes() != 0 && receipt.getSizeBytes() != now.get().sizeBytes())) {
      return new Lost(
          CHANGED,
          "intake object '"
              + receipt.getObjectKey()
              + "' now holds other bytes (entity tag "
              + now.get().etag()
              + ", "
              + now.get().sizeBytes()
              + " bytes; the receipt says "
              + receipt.getEtag()
              + ", "
              + receipt.getSizeBytes()
              + " bytes)");
    }
    String datasourceId =
        candidate.getDatasourceId().isEmpty()
            ? candidate.getDocumentRef().getGraphAddressId()
            : candidate.getDatasourceId();
    return new Same(
        accountId,
        datasourceId,
        candidate.getDocumentRef().getDocId(),
        husk.getFilename(),
        receipt);
  }

  /** Saves the fresh intake copy naming the object again; returns its reference. */
  public DocumentReference save(Same same) {
    return IntakeService.saveIntakeCopy(
        store, same.accountId(), same.datasourceId(), same.docId(), same.filename(), same.object());
  }

  /**
   * S3 quotes entity tags in HeadObject and not always in event notifications; a receipt with no
   * tag (an intake that never saw one) cannot prove sameness and is not taken.
   */
  private static boolean sameTag(String receipt, String now) {
    String a = receipt.replace("\"", "");
    return !a.isEmpty() && a.equals(now.replace("\"", ""));
  }
}
