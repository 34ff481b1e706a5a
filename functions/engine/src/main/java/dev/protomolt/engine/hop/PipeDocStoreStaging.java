package dev.protomolt.engine.hop;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PartChanges;
import dev.protomolt.core.parts.PartMask;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.DocumentReferences;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * {@link DocumentStaging} over the repository's {@link PipeDocStore}, in process. Level 1 is a
 * masked read; level 2 adds the BLOBS part only when the module needs the bytes. A CACHE copy is
 * reclaimed by tombstoning it (the purger deletes the objects). Failures of S3 or the network are
 * {@link DocumentStaging.TransientStoreFailure}; the store's typed refusals (not found, invalid)
 * propagate as they are, so the hop dead-letters instead of retrying a request that cannot succeed.
 */
public final class PipeDocStoreStaging implements DocumentStaging {

  private static final Set<PipeDocPart> ALL =
      EnumSet.of(
          PipeDocPart.PIPE_DOC_PART_CORE,
          PipeDocPart.PIPE_DOC_PART_BLOBS,
          PipeDocPart.PIPE_DOC_PART_CHUNKS,
          PipeDocPart.PIPE_DOC_PART_PARSED);

  /** What a read without level 2 covers: every part but BLOBS, every chunk set. */
  private static final PartMask WITHOUT_BLOBS =
      PartMask.of(
          PipeDocPart.PIPE_DOC_PART_CORE,
          PipeDocPart.PIPE_DOC_PART_CHUNKS,
          PipeDocPart.PIPE_DOC_PART_PARSED);

  private final PipeDocStore store;
  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  public PipeDocStoreStaging(PipeDocStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public PipeDoc hydrate(
      DocumentReference reference, Set<PipeDocPart> parts, boolean withBlobBytes) {
    Set<PipeDocPart> mask = EnumSet.copyOf(parts.isEmpty() ? ALL : parts);
    if (withBlobBytes) {
      mask.add(PipeDocPart.PIPE_DOC_PART_BLOBS);
    } else {
      mask.remove(PipeDocPart.PIPE_DOC_PART_BLOBS);
    }
    GetPipeDocRequest request =
        GetPipeDocRequest.newBuilder().setDocumentRef(reference).addAllParts(mask).build();
    return translated(
        "reading doc '" + reference.getDocId() + "'", () -> store.get(request).getPipedoc());
  }

  @Override
  public DocumentReference stage(
      PipeDoc document, String accountId, String graphId, String nodeId, boolean keep) {
    SavePipeDocRequest request = request(document, accountId, graphId, nodeId, keep).build();
    return translated(
        "staging doc '" + document.getDocId() + "' at node '" + nodeId + "'",
        () -> store.save(request).getDocumentRef());
  }

  private static SavePipeDocRequest.Builder request(
      PipeDoc document, String accountId, String graphId, String nodeId, boolean keep) {
    return SavePipeDocRequest.newBuilder()
        .setPipedoc(document)
        .setAccountId(accountId)
        .setGraphId(graphId)
        .setGraphLocationId(nodeId)
        .setKeep(keep);
  }

  @Override
  public DocumentReference stageFrom(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep) {
    return carry(
        source,
        document,
        accountId,
        graphId,
        nodeId,
        keep,
        PartMask.ALL,
        why -> stage(document, accountId, graphId, nodeId, keep));
  }

  @Override
  public DocumentReference stageFromWithoutBlobs(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep) {
    return carry(
        source,
        document,
        accountId,
        graphId,
        nodeId,
        keep,
        WITHOUT_BLOBS,
        why -> {
          throw new BlobsNotInHand(
              "doc '"
                  + document.getDocId()
                  + "' was read without its blobs and "
                  + why
                  + ", so they cannot be carried to node '"
                  + nodeId
                  + "'; nothing was written");
        });
  }

  /**
   * The partial save over {@code source}: the diff observes what {@code read} covers, and every part
   * it does not cover or did not see change is carried. When no carry is possible {@code
   * fullSave} is asked, with the reason.
   */
  private DocumentReference carry(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep,
      PartMask read,
      java.util.function.Function<String, DocumentReference> fullSave) {
    String what =
        "staging doc '"
            + document.getDocId()
            + "' at node '"
            + nodeId
            + "' from "
            + source.getGraphAddressId();
    if (!source.getDocId().equals(document.getDocId())
        || !source.getAccountId().equals(accountId)) {
      // Parts are only ever carried within one document of one account.
      return fullSave.apply("its source belongs to another document or account");
    }
    return translated(
        what,
        () -> {
          PipeDocManifest stored;
          try {
            GetPipeDocManifestResponse found =
                store.getManifest(
                    GetPipeDocManifestRequest.newBuilder().setDocumentRef(source).build());
            if (found.getStatus() != DocumentStatus.DOCUMENT_STATUS_ACTIVE) {
              return fullSave.apply("its source is no longer active");
            }
            stored = found.getManifest();
          } catch (PipeDocStoreException.DocumentNotFound gone) {
            return fullSave.apply("its source is gone");
          }
          ObjectKeys keys =
              ObjectKeys.forNode(
                  NodeIds.nodeId(
                      new NodeCoordinates(document.getDocId(), nodeId, accountId, graphId)));
          PartChanges changes = codec.observe(stored, document, keys, read).changes();
          SavePipeDocRequest.Builder save =
              request(document, accountId, graphId, nodeId, keep).setCopyUnwrittenPartsFrom(source);
          Set<PipeDocPart> written = EnumSet.noneOf(PipeDocPart.class);
          written.addAll(changes.partsWritten());
          if (written.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS)
              && changes.chunkSetsRemoved().isEmpty()
              && !changes.chunkOrderChanged()
              && !changes.chunkSetsWritten().isEmpty()) {
            // Only some chunk sets changed: write those and carry their siblings.
            written.remove(PipeDocPart.PIPE_DOC_PART_CHUNKS);
            save.addAllChunkSetsWritten(changes.chunkSetsWritten());
          }
          if (written.isEmpty() && save.getChunkSetsWrittenCount() == 0) {
            // Nothing changed, but every destination needs its own copy at its own address: the
            // small
            // CORE part is written and everything else is copied server-side.
            written.add(PipeDocPart.PIPE_DOC_PART_CORE);
          }
          save.addAllPartsWritten(written);
          try {
            return store.save(save.build()).getDocumentRef();
          } catch (PipeDocStoreException.CopySourceGone gone) {
            // The source was reclaimed between the manifest read and the copy.
            return fullSave.apply("its source was reclaimed during the save");
          }
        });
  }

  @Override
  public DocumentReference carryAll(
      DocumentReference source, String accountId, String graphId, String nodeId, boolean keep) {
    return carried(source, accountId, graphId, nodeId, keep, store::carryAll);
  }

  @Override
  public DocumentReference carryAllUnlessHeld(
      DocumentReference source, String accountId, String graphId, String nodeId) {
    return carried(source, accountId, graphId, nodeId, true, store::carryAllUnlessHeld);
  }

  private DocumentReference carried(
      DocumentReference source,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep,
      Function<SavePipeDocRequest, SavePipeDocResponse> carry) {
    PipeDoc named = PipeDoc.newBuilder().setDocId(source.getDocId()).build();
    SavePipeDocRequest request =
        request(named, accountId, graphId, nodeId, keep).setCopyUnwrittenPartsFrom(source).build();
    return translated(
        "carrying doc '"
            + source.getDocId()
            + "' from "
            + source.getGraphAddressId()
            + " to node '"
            + nodeId
            + "'",
        () -> {
          try {
            return carry.apply(request).getDocumentRef();
          } catch (PipeDocStoreException.CopySourceGone gone) {
            // No body is in hand to save instead, so this is the read's refusal, not a retry.
            throw new PipeDocStoreException.DocumentNotFound(
                "'"
                    + source.getDocId()
                    + "' at "
                    + source.getGraphAddressId()
                    + " to carry to node '"
                    + nodeId
                    + "' ("
                    + gone.getMessage()
                    + "); replay the document to store it again");
          }
        });
  }

  @Override
  public Optional<PipeDocManifest> activeManifest(DocumentReference reference) {
    return translated(
        "reading the manifest of doc '" + reference.getDocId() + "'",
        () -> {
          try {
            GetPipeDocManifestResponse found =
                store.getManifest(
                    GetPipeDocManifestRequest.newBuilder().setDocumentRef(reference).build());
            return found.getStatus() == DocumentStatus.DOCUMENT_STATUS_ACTIVE
                ? Optional.of(found.getManifest())
                : Optional.<PipeDocManifest>empty();
          } catch (PipeDocStoreException.DocumentNotFound gone) {
            return Optional.<PipeDocManifest>empty();
          }
        });
  }

  @Override
  public void reclaim(DocumentReference reference) {
    // Cache-only: a PERSIST copy is never reclaimed, whatever the reference claims.
    translated(
        "reclaiming doc '" + reference.getDocId() + "'",
        () ->
            store.tombstone(
                DocumentReferences.coordinates(reference, "document_ref"), "RECLAIMED", true));
  }

  private static <T> T translated(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (SdkException | UncheckedIOException e) {
      throw new TransientStoreFailure(what + " failed: " + e.getMessage(), e);
    }
  }
}
