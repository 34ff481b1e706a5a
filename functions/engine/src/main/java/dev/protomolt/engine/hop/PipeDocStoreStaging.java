package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.repository.PipeDocStore;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * {@link DocumentStaging} over the repository's {@link PipeDocStore}, in process. Level 1 is a
 * masked read; level 2 adds the BLOBS part only when the module needs the bytes. A CACHE copy is
 * reclaimed by tombstoning it (the purger deletes the objects). Failures of S3 or the network are
 * {@link DocumentStaging.TransientStoreFailure}; the store's typed refusals (not found, invalid)
 * propagate as they are, so the hop dead-letters instead of retrying a request that cannot succeed.
 */
public final class PipeDocStoreStaging implements DocumentStaging {

  private static final Set<PipeDocPart> ALL = EnumSet.of(PipeDocPart.PIPE_DOC_PART_CORE,
      PipeDocPart.PIPE_DOC_PART_BLOBS, PipeDocPart.PIPE_DOC_PART_CHUNKS, PipeDocPart.PIPE_DOC_PART_PARSED);

  private final PipeDocStore store;

  public PipeDocStoreStaging(PipeDocStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public PipeDoc hydrate(DocumentReference reference, Set<PipeDocPart> parts, boolean withBlobBytes) {
    Set<PipeDocPart> mask = EnumSet.copyOf(parts.isEmpty() ? ALL : parts);
    if (withBlobBytes) {
      mask.add(PipeDocPart.PIPE_DOC_PART_BLOBS);
    } else {
      mask.remove(PipeDocPart.PIPE_DOC_PART_BLOBS);
    }
    GetPipeDocRequest request = GetPipeDocRequest.newBuilder().setDocumentRef(reference).addAllParts(mask).build();
    return translated("reading doc '" + reference.getDocId() + "'", () -> store.get(request).getPipedoc());
  }

  @Override
  public DocumentReference stage(PipeDoc document, String accountId, String graphId, String nodeId, boolean keep) {
    SavePipeDocRequest request = SavePipeDocRequest.newBuilder()
        .setPipedoc(document)
        .setAccountId(accountId)
        .setGraphId(graphId)
        .setGraphLocationId(nodeId)
        .setKeep(keep)
        .build();
    return translated("staging doc '" + document.getDocId() + "' at node '" + nodeId + "'",
        () -> store.save(request).getDocumentRef());
  }

  @Override
  public void reclaim(DocumentReference reference) {
    translated("reclaiming doc '" + reference.getDocId() + "'",
        () -> store.delete(DeletePipeDocRequest.newBuilder().setDocumentRef(reference).build()));
  }

  private static <T> T translated(String what, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (SdkException | UncheckedIOException e) {
      throw new TransientStoreFailure(what + " failed: " + e.getMessage(), e);
    }
  }
}
