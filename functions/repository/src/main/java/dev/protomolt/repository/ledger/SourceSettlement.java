package dev.protomolt.repository.ledger;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.parts.BlobHusks;
import dev.protomolt.core.parts.DeletedReason;
import dev.protomolt.core.parts.ManifestEdits;
import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.postgres.LedgerException;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Settles a stored state's source after it was indexed: the BLOBS object is rewritten as a
 * metadata-only husk, its manifest entry turns DELETED ({@code POST_PARSE_POLICY}) keeping its
 * SHA-256 and size, and the raw objects the blobs pointed at are deleted (decision 0901).
 *
 * <p>The husk is written create-only at a key of its own first; then the manifest flips to name
 * it (a compare-and-set on the whole manifest that was read, so a newer save at the same address
 * is never edited), and the full BLOBS object is recorded as superseded in the same transaction,
 * so a reader holding the old manifest still finds it for the grace period (decision 1600). A
 * crash before the flip leaves an orphan husk for the reconciler; the stored state never changes
 * under a reader.
 */
public final class SourceSettlement {

  private final DataSource dataSource;
  private final LedgerStore ledger;
  private final BlobStore blobs;
  private final DriveDirectory drives;
  private final Clock clock;

  public SourceSettlement(
      DataSource dataSource,
      LedgerStore ledger,
      BlobStore blobs,
      DriveDirectory drives,
      Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** What settlement did, with a sentence saying why when it did nothing. */
  public record Settled(boolean settled, String detail) {}

  /**
   * Settles the ACTIVE row {@code nodeId}, which must belong to {@code accountId} and
   * {@code docId}. Settling an already settled row finishes whatever a previous run left undone.
   */
  public Settled settle(UUID nodeId, String accountId, String docId) {
    Optional<PipeDocRecord> found =
        ledger.find(nodeId).filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE);
    if (found.isEmpty()) {
      return new Settled(false, "no live stored state " + nodeId);
    }
    PipeDocRecord row = found.get();
    if (!row.accountId().equals(accountId) || !row.docId().equals(docId)) {
      // A receipt must never settle another account's or document's bytes.
      return new Settled(
          false,
          "stored state "
              + nodeId
              + " belongs to "
              + row.accountId()
              + "/"
              + row.docId()
              + ", not to the receipt's "
              + accountId
              + "/"
              + docId);
    }
    Optional<PartManifestEntry> entry =
        row.manifest().getEntriesList().stream()
            .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS)
            .findFirst();
    if (entry.isEmpty() || entry.get().getObjectKey().isBlank()) {
      return new Settled(false, "no BLOBS object to settle");
    }
    PartManifestEntry blobsEntry = entry.get();
    boolean present = blobsEntry.getState() == PartState.PART_STATE_PRESENT;
    boolean alreadySettled =
        blobsEntry.getState() == PartState.PART_STATE_DELETED
            && DeletedReason.POST_PARSE_POLICY.wireValue().equals(blobsEntry.getDeletedReason());
    if (!present && !alreadySettled) {
      return new Settled(
          false, "BLOBS is " + blobsEntry.getState() + " (" + blobsEntry.getDeletedReason() + ")");
    }
    Drive drive =
        drives
            .findByName(row.driveName())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "pipedocs row "
                            + nodeId
                            + " names drive "
                            + row.driveName()
                            + " which does not exist"));
    ObjectAddress at = new ObjectAddress(drive, blobsEntry.getObjectKey());
    byte[] stored;
    try {
      stored = blobs.get(at);
    } catch (ObjectMissingException e) {
      return new Settled(false, "the BLOBS object " + at + " is missing");
    }
    BlobHusks.Husk husk;
    try {
      husk = BlobHusks.of(PipeDoc.parseFrom(stored));
    } catch (InvalidProtocolBufferException e) {
      return new Settled(false, "the BLOBS object " + at + " is not a PipeDoc: " + e.getMessage());
    }
    byte[] huskBytes = husk.husk().toByteArray();
    if (present) {
      long token = ledger.nextWriteToken();
      ObjectAddress huskAt =
          new ObjectAddress(drive, ObjectKeys.forWrite(drive.prefix(), nodeId, token).blobs());
      blobs.create(huskAt, huskBytes, false);
      if (!flip(row, blobsEntry, huskAt.key(), token)) {
        return new Settled(
            false,
            "stored state " + nodeId + " changed while settling; a later receipt settles it");
      }
    } else if (!Arrays.equals(huskBytes, stored)) {
      // A row settled before husks had keys of their own, whose run stopped after the flip: its
      // DELETED entry is never read, so finishing the husk in place cannot disturb a reader.
      blobs.put(at, huskBytes, false);
    }
    List<ObjectAddress> raw = new ArrayList<>();
    for (FileStorageReference ref : husk.rawObjects()) {
      Optional<Drive> rawDrive =
          drives.findByName(ref.getDriveName()).filter(d -> d.accountId().equals(row.accountId()));
      if (rawDrive.isPresent() && !ref.getObjectKey().isBlank()) {
        raw.add(new ObjectAddress(rawDrive.get(), ref.getObjectKey()));
      }
    }
    List<ObjectAddress> left = raw.isEmpty() ? List.of() : blobs.deleteAll(raw);
    if (!left.isEmpty()) {
      return new Settled(true, "settled, but the store kept raw objects " + left);
    }
    return new Settled(true, "settled; " + raw.size() + " raw object(s) deleted");
  }

  /**
   * Marks BLOBS DELETED naming the husk, only if the row still has exactly the manifest that was
   * read, and records the full BLOBS object as superseded in the same transaction.
   */
  private boolean flip(
      PipeDocRecord row, PartManifestEntry blobsEntry, String huskKey, long huskToken) {
    Instant now = clock.instant();
    Timestamp at =
        Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()).build();
    PipeDocManifest edited =
        ManifestEdits.deleted(
            row.manifest(),
            PipeDocPart.PIPE_DOC_PART_BLOBS,
            "",
            DeletedReason.POST_PARSE_POLICY,
            at);
    // The entry names the husk: it is this row's object, and the purger and reconciler must see
    // it as owned.
    PipeDocManifest.Builder b = edited.toBuilder();
    for (int i = 0; i < b.getEntriesCount(); i++) {
      if (b.getEntries(i).getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS) {
        b.setEntries(i, b.getEntries(i).toBuilder().setObjectKey(huskKey));
      }
    }
    PipeDocManifest manifest = b.build();
    long size =
        manifest.getEntriesList().stream()
            .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
            .mapToLong(PartManifestEntry::getSizeBytes)
            .sum();
    PipeDocManifest fullBlobs =
        row.manifest().toBuilder().clearEntries().addEntries(blobsEntry).build();
    try {
      return Transactions.inTransaction(
          dataSource,
          c -> {
            long storedToken;
            try (PreparedStatement s =
                c.prepareStatement(
                    "UPDATE pipedocs SET manifest = ?::jsonb,"
                        + " checksum = ?, size_bytes = ?, updated_at = ? WHERE node_id = ?"
                        + " AND status = 'ACTIVE' AND manifest = ?::jsonb RETURNING write_token")) {
              s.setString(1, ManifestJson.toJson(manifest));
              s.setString(2, manifest.getChecksum());
              s.setLong(3, size);
              s.setTimestamp(4, java.sql.Timestamp.from(now));
              s.setObject(5, row.nodeId());
              s.setString(6, ManifestJson.toJson(row.manifest()));
              try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                  // The husk lost: nothing names it, so it goes the way of any superseded write.
                  PostgresLedgerStore.recordSuperseded(
                      c,
                      withManifest(row, huskOnly(manifest)),
                      huskToken,
                      huskToken,
                      "LOST_RACE",
                      now);
                  return false;
                }
                storedToken = rs.getLong(1);
              }
            }
            PostgresLedgerStore.recordSuperseded(
                c, withManifest(row, fullBlobs), storedToken, huskToken, "REPLACED", now);
            return true;
          });
    } catch (SQLException e) {
      throw new LedgerException("settling pipedocs row " + row.nodeId(), e);
    }
  }

  private static PipeDocManifest huskOnly(PipeDocManifest manifest) {
    PipeDocManifest.Builder b = manifest.toBuilder().clearEntries();
    manifest.getEntriesList().stream()
        .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS)
        .forEach(b::addEntries);
    return b.build();
  }

  private static PipeDocRecord withManifest(PipeDocRecord r, PipeDocManifest manifest) {
    return new PipeDocRecord(
        r.nodeId(),
        r.rowKind(),
        r.accountId(),
        r.docId(),
        r.graphId(),
        r.graphAddressId(),
        r.clusterId(),
        r.driveName(),
        r.status(),
        manifest,
        r.checksum(),
        r.sizeBytes(),
        r.keep(),
        r.crawlId(),
        r.datasourceId(),
        r.graphVersion(),
        r.createdAt(),
        r.updatedAt());
  }
}
