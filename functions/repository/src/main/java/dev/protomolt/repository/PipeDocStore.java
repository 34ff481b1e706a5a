package dev.protomolt.repository;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.core.parts.FragmentRejectedException;
import dev.protomolt.core.parts.ManifestChecksum;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PartFragment;
import dev.protomolt.core.parts.PartMask;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.parts.SplitDocument;
import dev.protomolt.core.store.AccountStatus;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectExistsException;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.store.PurgeEventSink;
import dev.protomolt.core.store.SaveCommit;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.DeletePipeDocResponse;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocResponse;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.proto.repository.v1.WriteProvenance;
import dev.protomolt.repository.purge.PurgeEvents;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Tracing;
import io.opentelemetry.api.trace.Tracer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The document store: saves, masked reads, manifests and tombstones of PipeDocs, stored as four
 * kinds of part objects in the account's drive and one ledger row per stored state.
 *
 * <p>The order of every call is: validate, look up (one short SQL statement each), talk to object
 * storage (concurrently, on virtual threads), record (one short transaction with no S3 call). No database connection is
 * held while object storage is being called, and the S3 write and the ledger row are not committed
 * together: an object that no live row lists is an orphan for the reconciler, never a document.
 *
 * <p>Every save writes its part objects once, create-only, under its own write token, so no save
 * ever overwrites an object a manifest names; the ledger commit is the only commit point, and the
 * newest write token wins at an address (decision 1600). A reader therefore always assembles one
 * whole stored state, the one named by the manifest it read.
 */
public final class PipeDocStore {

  private static final List<PipeDocPart> WHOLE_PARTS =
      List.of(
          PipeDocPart.PIPE_DOC_PART_CORE,
          PipeDocPart.PIPE_DOC_PART_BLOBS,
          PipeDocPart.PIPE_DOC_PART_PARSED);

  private final LedgerStore ledger;
  private final BlobStore blobs;
  private final DriveDirectory drives;
  private final AccountStatus accounts;
  private final Clock clock;
  private final PurgeEventSink purgeEvents;
  private final PipeDocPartCodec codec = new PipeDocPartCodec();
  private final Tracer tracer;

  /** A store that records no spans. */
  public PipeDocStore(
      LedgerStore ledger,
      BlobStore blobs,
      DriveDirectory drives,
      AccountStatus accounts,
      PurgeEventSink purgeEvents,
      Clock clock) {
    this(ledger, blobs, drives, accounts, purgeEvents, clock, Tracing.off().tracer());
  }

  /**
   * @param tracer records a {@code store.save} and {@code store.read} span per call, child of the
   *     caller's current span (decision 1793)
   */
  public PipeDocStore(
      LedgerStore ledger,
      BlobStore blobs,
      DriveDirectory drives,
      AccountStatus accounts,
      PurgeEventSink purgeEvents,
      Clock clock,
      Tracer tracer) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.purgeEvents = Objects.requireNonNull(purgeEvents, "purgeEvents");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.accounts = Objects.requireNonNull(accounts, "accounts");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Provisions or updates an account's drives and forgets its cached activity. */
  public void onAccountEvent(AccountEvent event) {
    drives.apply(event);
    accounts.invalidate(event.getAccountId());
  }

  // ------------------------------------------------------------------------------------------ save

  /**
   * Saves a document. With {@code parts_written} and {@code chunk_sets_written} empty every part is
   * written from the supplied document (an intake save whose content is already stored writes
   * nothing unless {@code force_save}); otherwise only the named parts are written and the rest are
   * copied from {@code copy_unwritten_parts_from} inside the object store.
   */
  public SavePipeDocResponse save(SavePipeDocRequest request) {
    return tracedSave(request, false);
  }

  /**
   * A new stored state at the request's address holding exactly what {@code
   * copy_unwritten_parts_from} holds: every part and chunk set is carried forward by server-side
   * copy, nothing is written and no object is read (decision 1838). For a hop that hands a body
   * on unchanged without having read it. The request's {@code pipedoc} names only the document
   * ({@code doc_id}); {@code parts_written} and {@code chunk_sets_written} must be empty.
   */
  public SavePipeDocResponse carryAll(SavePipeDocRequest request) {
    requireCarryOfEveryPart(request);
    return tracedSave(request, true);
  }

  /**
   * {@link #carryAll}, except that an address whose live PERSIST state already holds exactly the
   * source's content (an equal manifest checksum) is left as it is: nothing is copied or
   * committed, and the answer is {@code deduplicated} with the stored manifest (decision 1840).
   * For putting a memoized output back at a node's address, which on a replay usually still holds
   * that very output. A CACHE copy ({@code keep=false}) is always made, since a reclaim request
   * names the exact copy it reclaims.
   */
  public SavePipeDocResponse carryAllUnlessHeld(SavePipeDocRequest request) {
    requireCarryOfEveryPart(request);
    return traced(request, () -> held(request).orElseGet(() -> untracedSave(request, true)));
  }

  private static void requireCarryOfEveryPart(SavePipeDocRequest request) {
    if (request.getPartsWrittenCount() > 0 || request.getChunkSetsWrittenCount() > 0) {
      throw new PipeDocStoreException.InvalidRequest(
          request.getPartsWrittenCount() > 0 ? "parts_written" : "chunk_sets_written",
          "must be empty for a carry of every part (the body is not in hand to write from)");
    }
    if (!request.hasCopyUnwrittenPartsFrom()) {
      throw new PipeDocStoreException.InvalidRequest(
          "copy_unwritten_parts_from", "required for a carry of every part");
    }
  }

  /**
   * The stored state at the request's address when it is live, kept, on the target drive and of
   * the same content as the live source; empty when a carry has to be made (anything refused is
   * refused by the carry itself, with its own error).
   */
  private Optional<SavePipeDocResponse> held(SavePipeDocRequest request) {
    if (!request.getKeep()) {
      return Optional.empty();
    }
    SaveTarget target = SaveTarget.of(request);
    String accountId = target.coordinates().accountId();
    NodeCoordinates sourceCoordinates =
        DocumentReferences.coordinates(
            request.getCopyUnwrittenPartsFrom(), "copy_unwritten_parts_from");
    if (!sourceCoordinates.accountId().equals(accountId)
        || !sourceCoordinates.docId().equals(target.coordinates().docId())
        || !accounts.isActive(accountId)) {
      return Optional.empty();
    }
    Drive drive = requireDrive(accountId, DriveKind.of(target.rowKind()));
    Optional<PipeDocRecord> stored =
        ledger
            .find(target.nodeId())
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
            .filter(r -> r.keep() && r.rowKind() == target.rowKind())
            .filter(r -> r.driveName().equals(drive.name()));
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    boolean same =
        ledger
            .find(NodeIds.nodeId(sourceCoordinates))
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
            .filter(r -> r.checksum().equals(stored.get().checksum()))
            .isPresent();
    if (!same) {
      return Optional.empty();
    }
    return Optional.of(
        SavePipeDocResponse.newBuilder()
            .setNodeId(target.nodeId().toString())
            .setDocumentRef(DocumentReferences.of(target.coordinates(), target.nodeId(), true))
            .setManifest(stored.get().manifest())
            .setDeduplicated(true)
            .build());
  }

  private SavePipeDocResponse tracedSave(SavePipeDocRequest request, boolean carryAll) {
    return traced(request, () -> untracedSave(request, carryAll));
  }

  /** {@code save} inside a {@code store.save} span that says what it wrote. */
  private SavePipeDocResponse traced(
      SavePipeDocRequest request, Supplier<SavePipeDocResponse> save) {
    return Spans.inSpan(
        tracer,
        "store.save",
        span -> {
          Spans.aboutDocument(span, request.getPipedoc().getDocId());
          SavePipeDocResponse saved = save.get();
          span.setAttribute("protomolt.bytes_written", saved.getBytesWritten());
          span.setAttribute("protomolt.deduplicated", saved.getDeduplicated());
          return saved;
        });
  }

  private SavePipeDocResponse untracedSave(SavePipeDocRequest request, boolean carryAll) {
    SaveTarget target = SaveTarget.of(request);
    Set<PipeDocPart> partsWritten = partsWritten(request);
    Set<String> chunkSetsWritten = chunkSetsWritten(request);
    String accountId = target.coordinates().accountId();
    Drive drive = requireDrive(accountId, DriveKind.of(target.rowKind()));
    if (!accounts.isActive(accountId)) {
      throw new PipeDocStoreException.AccountInactive(accountId);
    }
    // The token is taken before any object is written: it names this save's objects, which no
    // other save can therefore overwrite, and it orders this save against any other at the same
    // address (decision 1600). CACHE copies go under cache/ so the bucket's lifecycle rule can
    // expire them (decision 1556).
    long writeToken = ledger.nextWriteToken();
    ObjectKeys keys =
        ObjectKeys.forWrite(drive.prefix(), target.nodeId(), request.getKeep(), writeToken);
    SplitDocument split = codec.split(keys, request.getPipedoc());
    Instant now = clock.instant();
    WriteProvenance written = provenance(request, now);
    boolean writesEverything =
        partsWritten.containsAll(PartMask.ALL.parts()) && chunkSetsWritten.isEmpty();
    if (!carryAll && (partsWritten.isEmpty() && chunkSetsWritten.isEmpty() || writesEverything)) {
      // Listing every part leaves nothing to carry, so the copy source is not consulted at all.
      return fullSave(request, target, drive, split, written, writeToken, now);
    }
    return partialSave(
        request,
        target,
        drive,
        keys,
        split,
        partsWritten,
        chunkSetsWritten,
        written,
        writeToken,
        now);
  }

  private SavePipeDocResponse fullSave(
      SavePipeDocRequest request,
      SaveTarget target,
      Drive drive,
      SplitDocument split,
      WriteProvenance written,
      long writeToken,
      Instant now) {
    if (target.rowKind() == RowKind.INTAKE && !request.getForceSave()) {
      var existing =
          ledger
              .find(target.nodeId())
              .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
              .filter(r -> r.driveName().equals(drive.name()))
              .filter(r -> r.checksum().equals(split.manifest().getChecksum()));
      if (existing.isPresent()) {
        // Same identity, same content: the objects are already there, so no PUT is made.
        return SavePipeDocResponse.newBuilder()
            .setNodeId(target.nodeId().toString())
            .setDocumentRef(
                DocumentReferences.of(target.coordinates(), target.nodeId(), existing.get().keep()))
            .setManifest(existing.get().manifest())
            .setDeduplicated(true)
            .build();
      }
    }
    boolean verify = request.getForceSave();
    List<Callable<Void>> puts = new ArrayList<>();
    for (PartFragment fragment : split.fragments()) {
      puts.add(
          () -> {
            create(new ObjectAddress(drive, fragment.objectKey()), fragment.bytes(), verify);
            return null;
          });
    }
    ConcurrentCalls.all(puts);
    List<PartManifestEntry> entries = new ArrayList<>();
    for (PartManifestEntry entry : split.manifest().getEntriesList()) {
      entries.add(stamp(entry, written, now));
    }
    return record(request, target, drive, entries, split.fragments(), writeToken, now);
  }

  private SavePipeDocResponse partialSave(
      SavePipeDocRequest request,
      SaveTarget target,
      Drive drive,
      ObjectKeys keys,
      SplitDocument split,
      Set<PipeDocPart> partsWritten,
      Set<String> chunkSetsWritten,
      WriteProvenance written,
      long writeToken,
      Instant now) {
    if (!request.hasCopyUnwrittenPartsFrom()) {
      throw new PipeDocStoreException.InvalidRequest(
          "copy_unwritten_parts_from",
          "required when parts_written or chunk_sets_written is set (it is where the other parts"
              + " are carried forward from)");
    }
    NodeCoordinates sourceCoordinates =
        DocumentReferences.coordinates(
            request.getCopyUnwrittenPartsFrom(), "copy_unwritten_parts_from");
    if (!sourceCoordinates.accountId().equals(target.coordinates().accountId())) {
      throw new PipeDocStoreException.InvalidRequest(
          "copy_unwritten_parts_from.account_id",
          "must equal account_id; parts are never carried between accounts");
    }
    if (!sourceCoordinates.docId().equals(target.coordinates().docId())) {
      throw new PipeDocStoreException.InvalidRequest(
          "copy_unwritten_parts_from.doc_id",
          "must equal pipedoc.doc_id; carried parts belong to the same document");
    }
    Map<String, PartFragment> newChunkSets = new LinkedHashMap<>();
    for (PartFragment f : split.fragments()) {
      if (f.part() == PipeDocPart.PIPE_DOC_PART_CHUNKS) {
        newChunkSets.put(f.subKey(), f);
      }
    }
    for (String subKey : chunkSetsWritten) {
      if (!newChunkSets.containsKey(subKey)) {
        throw new PipeDocStoreException.InvalidRequest(
            "chunk_sets_written",
            "'"
                + subKey
                + "' is not a chunk set of pipedoc (its chunk sets are "
                + newChunkSets.keySet()
                + ")");
      }
    }

    UUID sourceId = NodeIds.nodeId(sourceCoordinates);
    PipeDocRecord source =
        ledger
            .find(sourceId)
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
            .orElseThrow(
                () ->
                    new PipeDocStoreException.CopySourceGone(
                        "no live stored state " + sourceId, null));
    // Most carries stay on one drive; only a cross-drive carry needs the other drive looked up.
    Drive sourceDrive =
        source.driveName().equals(drive.name())
            ? drive
            : drives
                .findByName(source.driveName())
                .orElseThrow(
                    () ->
                        new PipeDocStoreException.CopySourceGone(
                            "the source's drive " + source.driveName() + " is not provisioned",
                            null));

    Map<String, PartFragment> fragmentsByKey = new LinkedHashMap<>();
    for (PartFragment f : split.fragments()) {
      fragmentsByKey.put(f.objectKey(), f);
    }
    List<PartManifestEntry> entries = new ArrayList<>();
    List<PartFragment> toWrite = new ArrayList<>();
    List<Callable<Void>> calls = new ArrayList<>();

    for (PipeDocPart part : WHOLE_PARTS) {
      if (partsWritten.contains(part)) {
        PartManifestEntry entry = entryOf(split.manifest(), part);
        entries.add(stamp(entry, written, now));
        if (entry.getState() == PartState.PART_STATE_PRESENT) {
          toWrite.add(fragmentsByKey.get(entry.getObjectKey()));
        }
      } else {
        PartManifestEntry sourceEntry =
            source.manifest().getEntriesList().stream()
                .filter(e -> e.getPart() == part)
                .findFirst()
                .orElseThrow(
                    () ->
                        new PipeDocStoreException.CopySourceGone(
                            "the source manifest lists no " + part + " entry", null));
        entries.add(carry(sourceEntry, sourceDrive, drive, keyOf(keys, part, ""), calls, now));
      }
    }

    List<PartManifestEntry> chunkEntries = new ArrayList<>();
    if (partsWritten.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS) && chunkSetsWritten.isEmpty()) {
      for (PartManifestEntry entry : split.manifest().getEntriesList()) {
        if (entry.getPart() == PipeDocPart.PIPE_DOC_PART_CHUNKS) {
          chunkEntries.add(stamp(entry, written, now));
          if (entry.getState() == PartState.PART_STATE_PRESENT) {
            toWrite.add(fragmentsByKey.get(entry.getObjectKey()));
          }
        }
      }
    } else {
      // Sibling chunk sets keep their place; written ones replace theirs in place, and new ones
      // follow in the order the supplied document has them.
      Set<String> placed = new LinkedHashSet<>();
      for (PartManifestEntry sourceEntry : source.manifest().getEntriesList()) {
        if (sourceEntry.getPart() != PipeDocPart.PIPE_DOC_PART_CHUNKS
            || sourceEntry.getState() == PartState.PART_STATE_EMPTY) {
          continue;
        }
        String subKey = sourceEntry.getSubKey();
        if (chunkSetsWritten.contains(subKey)) {
          PartFragment f = newChunkSets.get(subKey);
          chunkEntries.add(stamp(entryOf(split.manifest(), f), written, now));
          toWrite.add(f);
          placed.add(subKey);
        } else {
          chunkEntries.add(
              carry(
                  sourceEntry,
                  sourceDrive,
                  drive,
                  keyOf(keys, PipeDocPart.PIPE_DOC_PART_CHUNKS, subKey),
                  calls,
                  now));
        }
      }
      for (String subKey : chunkSetsWritten) {
        if (!placed.contains(subKey)) {
          PartFragment f = newChunkSets.get(subKey);
          chunkEntries.add(stamp(entryOf(split.manifest(), f), written, now));
          toWrite.add(f);
        }
      }
    }
    if (chunkEntries.isEmpty()) {
      chunkEntries.add(
          PartManifestEntry.newBuilder()
              .setPart(PipeDocPart.PIPE_DOC_PART_CHUNKS)
              .setState(PartState.PART_STATE_EMPTY)
              .build());
    }
    for (int i = 0; i < chunkEntries.size(); i++) {
      entries.add(chunkEntries.get(i).toBuilder().setOrdinal(i).build());
    }

    for (PartFragment f : toWrite) {
      calls.add(
          () -> {
            create(new ObjectAddress(drive, f.objectKey()), f.bytes(), request.getForceSave());
            return null;
          });
    }
    ConcurrentCalls.all(calls);
    return record(request, target, drive, entries, toWrite, writeToken, now);
  }

  /**
   * The entry a carried-forward part gets, scheduling the object copy when there is an object to
   * copy. The copy happens in the object store when one client reaches both drives.
   */
  private PartManifestEntry carry(
      PartManifestEntry sourceEntry,
      Drive sourceDrive,
      Drive drive,
      String targetKey,
      List<Callable<Void>> calls,
      Instant now) {
    String what = partName(sourceEntry);
    switch (sourceEntry.getState()) {
      case PART_STATE_EMPTY -> {
        return sourceEntry;
      }
      case PART_STATE_DELETED -> {
        // Nothing to copy: the entry itself (with a deletion's retained hash and size) carries.
        // A settled source's husk object belongs to the source row, so its key does not carry.
        return sourceEntry.toBuilder().clearObjectKey().build();
      }
      case PART_STATE_PRESENT -> {
        if (sourceEntry.getObjectKey().isBlank()) {
          throw new PipeDocStoreException.CopySourceGone(
              "the source manifest says " + what + " is PRESENT but gives no object_key", null);
        }
      }
      case PART_STATE_UNSPECIFIED, UNRECOGNIZED ->
          throw new PipeDocStoreException.CopySourceGone(
              "the source manifest gives " + what + " no state", null);
    }
    ObjectAddress from = new ObjectAddress(sourceDrive, sourceEntry.getObjectKey());
    ObjectAddress to = new ObjectAddress(drive, targetKey);
    if (!from.equals(to)) {
      calls.add(
          () -> {
            try {
              blobs.copy(from, to);
            } catch (ObjectMissingException e) {
              throw new PipeDocStoreException.CopySourceGone(what + " has no object at " + from, e);
            }
            return null;
          });
    }
    WriteProvenance carried =
        sourceEntry.getWrittenBy().toBuilder().setCarriedForward(true).build();
    return sourceEntry.toBuilder()
        .setObjectKey(targetKey)
        .setWrittenBy(carried)
        .setUpdatedAt(timestamp(now))
        .build();
  }

  private SavePipeDocResponse record(
      SavePipeDocRequest request,
      SaveTarget target,
      Drive drive,
      List<PartManifestEntry> entries,
      List<PartFragment> written,
      long writeToken,
      Instant now) {
    PipeDocManifest manifest =
        PipeDocManifest.newBuilder()
            .setNodeId(target.nodeId().toString())
            .setDocId(target.coordinates().docId())
            .addAllEntries(entries)
            .setChecksum(ManifestChecksum.of(entries))
            .setCodecVersion(PipeDocPartCodec.CODEC_VERSION)
            .setUpdatedAt(timestamp(now))
            .build();
    long size =
        entries.stream()
            .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
            .mapToLong(PartManifestEntry::getSizeBytes)
            .sum();
    NodeCoordinates c = target.coordinates();
    SaveCommit commit =
        ledger.commit(
            new PipeDocRecord(
                target.nodeId(),
                target.rowKind(),
                c.accountId(),
                c.docId(),
                c.graphId(),
                c.graphAddressId(),
                target.clusterId(),
                drive.name(),
                DocumentStatus.DOCUMENT_STATUS_ACTIVE,
                manifest,
                manifest.getChecksum(),
                size,
                request.getKeep(),
                target.crawlId(),
                target.datasourceId(),
                request.getGraphVersion(),
                // A re-save of an existing row keeps the row's created_at (the commit never updates
                // it).
                now,
                now),
            writeToken,
            // The commit's own time starts the grace period of the state it supersedes.
            clock.instant());
    Set<PipeDocPart> partsWritten = EnumSet.noneOf(PipeDocPart.class);
    long bytesWritten = 0;
    for (PartFragment f : written) {
      partsWritten.add(f.part());
      bytesWritten += f.bytes().length;
    }
    // A save that lost to a newer one at the same address answers with the state that is stored
    // there now, which is what any read of the address returns; its own objects are orphans.
    PipeDocRecord stored = commit.stored();
    return SavePipeDocResponse.newBuilder()
        .setNodeId(target.nodeId().toString())
        .setDocumentRef(
            DocumentReferences.of(
                c, target.nodeId(), commit.applied() ? request.getKeep() : stored.keep()))
        .setManifest(commit.applied() ? manifest : stored.manifest())
        .setDeduplicated(false)
        .addAllPartsWritten(partsWritten)
        .setBytesWritten(bytesWritten)
        .build();
  }

  // ------------------------------------------------------------------------------------------ read

  /** A masked read: only the requested parts' objects are fetched, all at once. */
  public GetPipeDocResponse get(GetPipeDocRequest request) {
    if (!request.hasDocumentRef()) {
      throw new PipeDocStoreException.InvalidRequest("document_ref", "required");
    }
    NodeCoordinates coordinates =
        DocumentReferences.coordinates(request.getDocumentRef(), "document_ref");
    return read(coordinates, mask(request.getPartsList(), request.getChunkSetsList()));
  }

  /** A masked read by identity. */
  public GetPipeDocResponse read(NodeCoordinates coordinates, PartMask mask) {
    return Spans.inSpan(
        tracer,
        "store.read",
        span -> {
          Spans.aboutDocument(span, coordinates.docId());
          return untracedRead(coordinates, mask);
        });
  }

  private GetPipeDocResponse untracedRead(NodeCoordinates coordinates, PartMask mask) {
    UUID nodeId = NodeIds.nodeId(coordinates);
    PipeDocRecord row =
        ledger
            .find(nodeId)
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
            .orElseThrow(
                () ->
                    new PipeDocStoreException.DocumentNotFound(
                        "at node " + nodeId + " (doc_id " + coordinates.docId() + ")"));
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
    List<PartManifestEntry> wanted = new ArrayList<>();
    for (PartManifestEntry entry : row.manifest().getEntriesList()) {
      boolean included =
          entry.getPart() == PipeDocPart.PIPE_DOC_PART_CHUNKS
              ? mask.includesChunkSet(entry.getSubKey())
              : mask.includes(entry.getPart());
      if (included && entry.getState() == PartState.PART_STATE_PRESENT) {
        if (entry.getObjectKey().isBlank()) {
          throw new PipeDocStoreException.PartUnreadable(
              entry.getPart(),
              entry.getSubKey(),
              "the manifest says PRESENT but gives no object_key",
              null);
        }
        wanted.add(entry);
      }
    }
    List<Callable<byte[]>> gets = new ArrayList<>();
    for (PartManifestEntry entry : wanted) {
      ObjectAddress at = new ObjectAddress(drive, entry.getObjectKey());
      gets.add(
          () -> {
            try {
              return blobs.get(at);
            } catch (ObjectMissingException e) {
              throw new PipeDocStoreException.PartUnreadable(
                  entry.getPart(),
                  entry.getSubKey(),
                  "the manifest lists it but there is no object at " + at,
                  e);
            }
          });
    }
    List<byte[]> fetched = ConcurrentCalls.all(gets);
    Map<String, byte[]> bytesByKey = new LinkedHashMap<>();
    Set<PipeDocPart> returned = EnumSet.noneOf(PipeDocPart.class);
    for (int i = 0; i < wanted.size(); i++) {
      bytesByKey.put(wanted.get(i).getObjectKey(), fetched.get(i));
      returned.add(wanted.get(i).getPart());
    }
    PipeDoc doc;
    try {
      doc = codec.assemble(row.manifest(), bytesByKey, mask);
    } catch (FragmentRejectedException e) {
      throw new PipeDocStoreException.PartUnreadable(e.part(), e.subKey(), e.getMessage(), e);
    }
    return GetPipeDocResponse.newBuilder()
        .setPipedoc(doc)
        .setManifest(row.manifest())
        .addAllPartsReturned(returned)
        .build();
  }

  /** The part map and status of a stored state; no object is touched. */
  public GetPipeDocManifestResponse getManifest(GetPipeDocManifestRequest request) {
    if (!request.hasDocumentRef()) {
      throw new PipeDocStoreException.InvalidRequest("document_ref", "required");
    }
    NodeCoordinates coordinates =
        DocumentReferences.coordinates(request.getDocumentRef(), "document_ref");
    UUID nodeId = NodeIds.nodeId(coordinates);
    PipeDocRecord row =
        ledger
            .find(nodeId)
            .orElseThrow(() -> new PipeDocStoreException.DocumentNotFound("at node " + nodeId));
    return GetPipeDocManifestResponse.newBuilder()
        .setManifest(row.manifest())
        .setStatus(row.status())
        .setKeep(row.keep())
        .build();
  }

  /**
   * Tombstones a stored state: it disappears from reads at once, and a {@link StoragePurgeEvent}
   * asks the purger to delete its objects. Deleting a row that is not ACTIVE changes nothing and
   * emits nothing.
   */
  public DeletePipeDocResponse delete(DeletePipeDocRequest request) {
    if (!request.hasDocumentRef()) {
      throw new PipeDocStoreException.InvalidRequest("document_ref", "required");
    }
    NodeCoordinates coordinates =
        DocumentReferences.coordinates(request.getDocumentRef(), "document_ref");
    String reason = request.getReason().isBlank() ? "DELETED" : request.getReason();
    return tombstone(coordinates, reason, false)
        .map(
            e ->
                DeletePipeDocResponse.newBuilder()
                    .setTombstoned(true)
                    .setPurgeEventId(e.getPurgeEventId())
                    .build())
        .orElseGet(() -> DeletePipeDocResponse.newBuilder().setTombstoned(false).build());
  }

  /**
   * Tombstones the ACTIVE row at {@code coordinates} and publishes its purge event.
   *
   * @param cacheOnly when true a PERSIST ({@code keep}) row is left alone: a reclaim only frees
   *     inter-step bodies the engine no longer needs
   * @return the published event, or empty when no ACTIVE row (of the right staging) was there
   */
  public Optional<StoragePurgeEvent> tombstone(
      NodeCoordinates coordinates, String reason, boolean cacheOnly) {
    UUID nodeId = NodeIds.nodeId(coordinates);
    Optional<PipeDocRecord> row =
        ledger
            .find(nodeId)
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE)
            .filter(r -> !cacheOnly || !r.keep());
    if (row.isEmpty()) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    if (!ledger.tombstone(nodeId, now)) {
      // Someone else tombstoned it between the read and the update; their event covers it.
      return Optional.empty();
    }
    StoragePurgeEvent built = PurgeEvents.of(row.get(), reason, now);
    // Published after the tombstone commits: a lost publish leaves a PENDING_PURGE row, which is
    // invisible to reads and which TombstoneReannouncer announces again; the reverse order could
    // purge
    // a row that never got tombstoned.
    purgeEvents.publish(built);
    return Optional.of(built);
  }

  /**
   * Tombstones the exact CACHE stored state a reclaim request names: the ACTIVE {@code keep=false}
   * row at {@code coordinates} whose manifest still has {@code expectedChecksum} and
   * {@code expectedUpdatedAt}, decided in the same statement as the tombstone (decision 0817). A
   * PERSIST row, a gone row and a newer copy at the same address are all left alone.
   *
   * @return the published event, or empty when that exact copy was not there
   */
  public Optional<StoragePurgeEvent> reclaimCacheCopy(
      NodeCoordinates coordinates,
      String reason,
      String expectedChecksum,
      Timestamp expectedUpdatedAt) {
    UUID nodeId = NodeIds.nodeId(coordinates);
    Optional<PipeDocRecord> row =
        ledger
            .find(nodeId)
            .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_ACTIVE && !r.keep())
            .filter(
                r ->
                    r.manifest().getChecksum().equals(expectedChecksum)
                        && r.manifest().getUpdatedAt().equals(expectedUpdatedAt));
    if (row.isEmpty()) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    // The conditional update re-checks what the read saw: a save landing in between makes it
    // match nothing, so the event below always describes the manifest that was tombstoned.
    if (!ledger.tombstoneCacheCopy(nodeId, now, expectedChecksum, expectedUpdatedAt)) {
      return Optional.empty();
    }
    StoragePurgeEvent built = PurgeEvents.of(row.get(), reason, now);
    purgeEvents.publish(built);
    return Optional.of(built);
  }

  /** The reference of a document's stored state, for callers that hold coordinates. */
  public static DocumentReference reference(NodeCoordinates coordinates, boolean keep) {
    return DocumentReferences.of(coordinates, NodeIds.nodeId(coordinates), keep);
  }

  // --------------------------------------------------------------------------------------- helpers

  /**
   * A create-only write of one of this save's own objects. The key holds this save's write token,
   * so finding another object there means the ledger handed a token out twice: refused, never
   * overwritten.
   */
  private void create(ObjectAddress at, byte[] bytes, boolean verify) {
    try {
      blobs.create(at, bytes, verify);
    } catch (ObjectExistsException e) {
      throw new IllegalStateException(
          "write token collision: " + e.getMessage() + " (the ledger reused a write token)", e);
    }
  }

  private Drive requireDrive(String accountId, DriveKind kind) {
    return drives
        .find(accountId, kind)
        .orElseThrow(
            () ->
                new PipeDocStoreException.AccountNotProvisioned(
                    accountId, kind.driveName(accountId)));
  }

  private static Set<PipeDocPart> partsWritten(SavePipeDocRequest request) {
    Set<PipeDocPart> parts = EnumSet.noneOf(PipeDocPart.class);
    for (int i = 0; i < request.getPartsWrittenCount(); i++) {
      PipeDocPart part = request.getPartsWritten(i);
      if (part == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || part == PipeDocPart.UNRECOGNIZED) {
        throw new PipeDocStoreException.InvalidRequest(
            "parts_written[" + i + "]", "must be CORE, BLOBS, CHUNKS or PARSED");
      }
      parts.add(part);
    }
    return parts;
  }

  private static Set<String> chunkSetsWritten(SavePipeDocRequest request) {
    Set<String> subKeys = new LinkedHashSet<>();
    for (int i = 0; i < request.getChunkSetsWrittenCount(); i++) {
      String subKey = request.getChunkSetsWritten(i);
      if (subKey.isEmpty()) {
        throw new PipeDocStoreException.InvalidRequest(
            "chunk_sets_written[" + i + "]", "must not be empty");
      }
      subKeys.add(subKey);
    }
    return subKeys;
  }

  private static PartMask mask(List<PipeDocPart> parts, List<String> chunkSets) {
    Set<PipeDocPart> wanted = EnumSet.noneOf(PipeDocPart.class);
    for (int i = 0; i < parts.size(); i++) {
      PipeDocPart part = parts.get(i);
      if (part == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || part == PipeDocPart.UNRECOGNIZED) {
        throw new PipeDocStoreException.InvalidRequest(
            "parts[" + i + "]", "must be CORE, BLOBS, CHUNKS or PARSED");
      }
      wanted.add(part);
    }
    if (wanted.isEmpty()) {
      wanted = PartMask.ALL.parts();
    }
    if (!chunkSets.isEmpty() && !wanted.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS)) {
      throw new PipeDocStoreException.InvalidRequest(
          "chunk_sets", "only applies when parts includes CHUNKS (or is empty)");
    }
    return new PartMask(wanted, Set.copyOf(chunkSets));
  }

  private static String keyOf(ObjectKeys keys, PipeDocPart part, String subKey) {
    return switch (part) {
      case PIPE_DOC_PART_CORE -> keys.core();
      case PIPE_DOC_PART_BLOBS -> keys.blobs();
      case PIPE_DOC_PART_PARSED -> keys.parsed();
      case PIPE_DOC_PART_CHUNKS -> keys.chunkSet(subKey);
      case PIPE_DOC_PART_UNSPECIFIED, UNRECOGNIZED ->
          throw new IllegalArgumentException("no object key for part " + part);
    };
  }

  private static PartManifestEntry entryOf(PipeDocManifest manifest, PipeDocPart part) {
    return manifest.getEntriesList().stream()
        .filter(e -> e.getPart() == part)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the codec's manifest has no " + part));
  }

  private static PartManifestEntry entryOf(PipeDocManifest manifest, PartFragment fragment) {
    return manifest.getEntriesList().stream()
        .filter(e -> e.getObjectKey().equals(fragment.objectKey()))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the codec's manifest has no entry for " + fragment.objectKey()));
  }

  private static PartManifestEntry stamp(
      PartManifestEntry entry, WriteProvenance written, Instant now) {
    if (entry.getState() != PartState.PART_STATE_PRESENT) {
      return entry;
    }
    return entry.toBuilder().setWrittenBy(written).setUpdatedAt(timestamp(now)).build();
  }

  private static WriteProvenance provenance(SavePipeDocRequest request, Instant now) {
    WriteProvenance.Builder p =
        request.getProvenance().toBuilder().setWrittenAt(timestamp(now)).setCarriedForward(false);
    if (p.getGraphId().isEmpty()) {
      p.setGraphId(request.getGraphId());
    }
    if (p.getGraphVersion() == 0) {
      p.setGraphVersion(request.getGraphVersion());
    }
    return p.build();
  }

  private static String partName(PartManifestEntry entry) {
    String name = entry.getPart().name().replace("PIPE_DOC_PART_", "");
    return entry.getSubKey().isEmpty()
        ? "part " + name
        : "part " + name + " chunk set '" + entry.getSubKey() + "'";
  }

  private static Timestamp timestamp(Instant at) {
    return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
  }
}
