package dev.protomolt.gateway;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PartChanges;
import dev.protomolt.core.parts.PartMask;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.routing.InlineBudget;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocResponse;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.proto.repository.v1.WriteProvenance;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Hydration and result saving through the document store (decision 0851): a stored body is read
 * with the dispatch's mask and saved back at the hop's address as a partial save of the parts the
 * module changed, carrying the rest forward; an inline body stays inline unless it outgrows the
 * Step Functions payload budget.
 */
public final class StoreWorkDocuments implements WorkDocuments {

  /**
   * Bytes of stream JSON an inline result may keep riding inline; above it the result is saved and
   * goes by reference. It is the engine's inline budget, below Step Functions' 256 KiB limit on
   * SendTaskSuccess output with room for the envelope. Measured as JSON, not as protobuf: a dense
   * vector costs 4 bytes a float in protobuf and 10 to 20 in JSON (decision 1656).
   */
  public static final int INLINE_LIMIT_BYTES = InlineBudget.DEFAULT_BYTES;

  private final PipeDocStore store;
  private final ReferencedBlobs referenced;
  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  /** Blobs held only as storage references reach modules as references. */
  public StoreWorkDocuments(PipeDocStore store) {
    this(store, null);
  }

  /** With {@code referenced}, level 2 hydration also reads storage-referenced blob bytes. */
  public StoreWorkDocuments(PipeDocStore store, ReferencedBlobs referenced) {
    this.store = Objects.requireNonNull(store, "store");
    this.referenced = referenced;
  }

  @Override
  public HydratedUnit hydrate(WorkDispatch dispatch) {
    PipeStream stream = dispatch.getStream();
    switch (stream.getPayloadCase()) {
      case DOCUMENT -> {
        PipeStream inline =
            dispatch.getNeedsBlobContent() && referenced != null
                ? stream.toBuilder().setDocument(referenced.inline(stream.getDocument())).build()
                : stream;
        return new HydratedUnit(inline, null, PartMask.ALL, dispatch.getNeedsBlobContent());
      }
      case DOCUMENT_REF -> {
        PartMask mask = mask(dispatch);
        GetPipeDocRequest.Builder get =
            GetPipeDocRequest.newBuilder()
                .setDocumentRef(stream.getDocumentRef())
                .addAllParts(mask.parts())
                .addAllChunkSets(mask.chunkSets());
        GetPipeDocResponse read;
        try {
          read = store.get(get.build());
        } catch (PipeDocStoreException.DocumentNotFound
            | PipeDocStoreException.PartUnreadable
            | PipeDocStoreException.InvalidRequest e) {
          throw new HydrationFailedException("stream.document_ref: " + e.getMessage(), true, e);
        } catch (RuntimeException e) {
          throw new HydrationFailedException("the document store is unreachable: " + e, false, e);
        }
        PipeDoc document = read.getPipedoc();
        if (referenced != null && mask.includes(PipeDocPart.PIPE_DOC_PART_BLOBS)) {
          document = referenced.inline(document);
        }
        PipeStream hydrated = stream.toBuilder().setDocument(document).build();
        return new HydratedUnit(
            hydrated, read.getManifest(), mask, mask.includes(PipeDocPart.PIPE_DOC_PART_BLOBS));
      }
      default ->
          throw new HydrationFailedException(
              "stream.payload: a dispatch must carry document or document_ref, it carried neither",
              true,
              null);
    }
  }

  /** Level 1 mask from required_parts (empty = all); BLOBS only for level 2 hydration. */
  static PartMask mask(WorkDispatch dispatch) {
    Set<PipeDocPart> parts = EnumSet.noneOf(PipeDocPart.class);
    if (dispatch.getRequiredPartsCount() == 0) {
      parts.addAll(PartMask.ALL.parts());
    } else {
      for (int i = 0; i < dispatch.getRequiredPartsCount(); i++) {
        PipeDocPart p = dispatch.getRequiredParts(i);
        if (p == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || p == PipeDocPart.UNRECOGNIZED) {
          throw new HydrationFailedException(
              "required_parts[" + i + "]: must be CORE, BLOBS, CHUNKS or PARSED, got " + p,
              true,
              null);
        }
        parts.add(p);
      }
    }
    if (dispatch.getNeedsBlobContent()) {
      parts.add(PipeDocPart.PIPE_DOC_PART_BLOBS);
    } else {
      parts.remove(PipeDocPart.PIPE_DOC_PART_BLOBS);
    }
    Set<String> chunkSets = new LinkedHashSet<>(dispatch.getRequiredChunkSetsList());
    if (!chunkSets.isEmpty()) {
      parts.add(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    }
    return new PartMask(parts, chunkSets);
  }

  @Override
  public PipeStream saveResult(WorkDispatch dispatch, HydratedUnit served, PipeDoc processed) {
    PipeStream original = dispatch.getStream();
    if (!served.fromStore()) {
      PipeStream inline = original.toBuilder().setDocument(processed).build();
      int bytes = TaskOutputs.streamJsonBytes(inline);
      if (bytes <= INLINE_LIMIT_BYTES) {
        return inline;
      }
      if (forgettable(original, processed)) {
        // Its bytes are never written to the store (decision 0814), so there is no reference to
        // hand on: the hop fails, typed, rather than loop on an output Step Functions refuses.
        throw new TaskOutputTooLargeException(
            "work unit "
                + dispatch.getWorkUnitId()
                + ": the module's result is "
                + bytes
                + " bytes of stream JSON, over the "
                + INLINE_LIMIT_BYTES
                + "-byte inline limit of a hop's output (Step Functions caps SendTaskSuccess"
                + " output at 262,144 bytes), and a right-to-be-forgotten document is never"
                + " stored, so it cannot go by reference",
            bytes,
            INLINE_LIMIT_BYTES);
      }
      // An inline body came over a MEMORY edge, so the hop's address holds no copy of its own
      // unless the engine says otherwise.
      SavePipeDocResponse saved =
          store.save(
              target(
                      dispatch,
                      processed,
                      accountOf(original, processed),
                      dispatch.hasResultKeep() && dispatch.getResultKeep())
                  .build());
      return original.toBuilder().setDocumentRef(saved.getDocumentRef()).build();
    }
    DocumentReference source = original.getDocumentRef();
    NodeCoordinates hop =
        new NodeCoordinates(
            processed.getDocId(),
            dispatch.getNodeId(),
            source.getAccountId(),
            dispatch.getGraphId());
    ObjectKeys keys = ObjectKeys.forNode(NodeIds.nodeId(hop));
    PartChanges changes =
        codec.observe(served.storedManifest(), processed, keys, served.readMask()).changes();
    SavePipeDocRequest.Builder save =
        target(dispatch, processed, source.getAccountId(), resultKeep(dispatch, source))
            .setCopyUnwrittenPartsFrom(source);
    boolean rewriteChunks = !changes.chunkSetsRemoved().isEmpty() || changes.chunkOrderChanged();
    Set<PipeDocPart> written = EnumSet.noneOf(PipeDocPart.class);
    written.addAll(changes.partsWritten());
    if (rewriteChunks) {
      written.add(PipeDocPart.PIPE_DOC_PART_CHUNKS);
    } else if (!changes.chunkSetsWritten().isEmpty()) {
      written.remove(PipeDocPart.PIPE_DOC_PART_CHUNKS);
      save.addAllChunkSetsWritten(changes.chunkSetsWritten());
    }
    if (written.isEmpty() && changes.chunkSetsWritten().isEmpty()) {
      if (source.getDocId().equals(processed.getDocId())
          && ownCopy(dispatch, source, save.getKeep())) {
        // The input is already the hop's own copy, part for part what the module handed back (a
        // sink's usual answer): another state of the same bytes at the same address would be a
        // PUT and a few copies for nothing (decision 1841).
        return original;
      }
      // Nothing changed, yet the hop still needs its own copy: writing the small CORE part and
      // carrying every other part forward costs one PUT and a few server-side copies.
      written.add(PipeDocPart.PIPE_DOC_PART_CORE);
    }
    save.addAllPartsWritten(written);
    SavePipeDocResponse saved = store.save(save.build());
    return original.toBuilder().setDocumentRef(saved.getDocumentRef()).build();
  }

  /**
   * Whether {@code source} is the PERSIST state at the hop's own address and the result is kept
   * too: then an unchanged result needs no save of its own. A CACHE input is always copied, since
   * its reclaim names that exact copy (decision 0817).
   */
  static boolean ownCopy(WorkDispatch dispatch, DocumentReference source, boolean resultKeep) {
    return resultKeep && source.getKeep() && atHopAddress(dispatch, source);
  }

  /** Whether {@code source} is the stored state at the dispatched hop's own address. */
  private static boolean atHopAddress(WorkDispatch dispatch, DocumentReference source) {
    return source.getGraphAddressId().equals(dispatch.getNodeId())
        && source.getGraphId().equals(dispatch.getGraphId());
  }

  /**
   * The keep flag of the hop's own address, where the result is saved (decision 0815): the
   * dispatch's {@code result_keep} when the engine set it, else the source's flag only when the
   * source is the copy at that very address. A source elsewhere (a CACHE pre-mapped copy at
   * {@code <node>.pre}) says nothing about the node's copy, so the result is kept rather than risk
   * turning a PERSIST copy into a CACHE one that its hop then reclaims; a CACHE copy kept by mistake
   * is left for the retention sweeper, a PERSIST copy reclaimed by mistake would be lost.
   */
  static boolean resultKeep(WorkDispatch dispatch, DocumentReference source) {
    if (dispatch.hasResultKeep()) {
      return dispatch.getResultKeep();
    }
    return !atHopAddress(dispatch, source) || source.getKeep();
  }

  private static SavePipeDocRequest.Builder target(
      WorkDispatch dispatch, PipeDoc processed, String accountId, boolean keep) {
    PipeStream s = dispatch.getStream();
    return SavePipeDocRequest.newBuilder()
        .setPipedoc(processed)
        .setAccountId(accountId)
        .setClusterId(dispatch.getClusterId())
        .setGraphId(dispatch.getGraphId())
        .setGraphLocationId(dispatch.getNodeId())
        .setGraphVersion(dispatch.getGraphVersion())
        .setDatasourceId(s.getMetadata().getDatasourceId())
        .setCrawlId(s.getMetadata().getCrawlId())
        .setKeep(keep)
        .setProvenance(
            WriteProvenance.newBuilder()
                .setModuleId(dispatch.getModuleId())
                .setNodeId(dispatch.getNodeId())
                .setGraphId(dispatch.getGraphId())
                .setGraphVersion(dispatch.getGraphVersion())
                .setWorkUnitId(dispatch.getWorkUnitId()));
  }

  private static boolean forgettable(PipeStream original, PipeDoc processed) {
    // Either side declaring it is enough: a module must not lift the ceiling by dropping the flag.
    // A stream under a data key is one whatever its body says (decision 1750).
    return SealedStreams.keyed(original)
        || original.getDocument().getOwnership().getRightToBeForgotten()
        || processed.getOwnership().getRightToBeForgotten();
  }

  private static String accountOf(PipeStream stream, PipeDoc doc) {
    String account = stream.getMetadata().getAccountId();
    return account.isEmpty() ? doc.getOwnership().getAccountId() : account;
  }
}
