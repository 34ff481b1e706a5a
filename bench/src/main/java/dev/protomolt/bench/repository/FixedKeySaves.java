package dev.protomolt.bench.repository;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PartFragment;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.parts.SplitDocument;
import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The full save as the store made it before write tokens, kept only as the benchmark's baseline:
 * part objects PUT over the node's fixed keys ({@code <nodeId>/core.pb}, ...) concurrently, then
 * one ledger upsert. Concurrent saves at one address tear the stored state this way; the
 * benchmark shows what the fix costs against it.
 */
final class FixedKeySaves {

  private final PipeDocPartCodec codec = new PipeDocPartCodec();
  private final LedgerStore ledger;
  private final BlobStore blobs;
  private final Drive drive;

  FixedKeySaves(LedgerStore ledger, BlobStore blobs, Drive drive) {
    this.ledger = ledger;
    this.blobs = blobs;
    this.drive = drive;
  }

  void save(NodeCoordinates at, PipeDoc doc, Instant now) {
    var nodeId = NodeIds.nodeId(at);
    SplitDocument split = codec.split(ObjectKeys.forNode(drive.prefix(), nodeId), doc);
    try (ExecutorService puts = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> pending = new ArrayList<>();
      for (PartFragment f : split.fragments()) {
        pending.add(
            puts.submit(
                () -> blobs.put(new ObjectAddress(drive, f.objectKey()), f.bytes(), false)));
      }
      for (Future<?> p : pending) {
        p.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while saving", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a PUT failed", e.getCause());
    }
    long size =
        split.manifest().getEntriesList().stream()
            .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
            .mapToLong(PartManifestEntry::getSizeBytes)
            .sum();
    ledger.upsert(
        new PipeDocRecord(
            nodeId,
            RowKind.PIPELINE,
            at.accountId(),
            at.docId(),
            at.graphId(),
            at.graphAddressId(),
            "default",
            drive.name(),
            DocumentStatus.DOCUMENT_STATUS_ACTIVE,
            split.manifest(),
            split.manifest().getChecksum(),
            size,
            false,
            null,
            null,
            1,
            now,
            now));
  }
}
