package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-memory {@link DocumentStaging} that records every stage and reclaim, so the hop tests can
 * check which edge behaviour staged what with which keep flag. It stands in for the repository's
 * PipeDocStore adapter, which is not wired into the engine yet (see the engine README).
 */
final class RecordingStaging implements DocumentStaging {

  record Staged(String accountId, String graphId, String nodeId, String docId, boolean keep) {}

  final Map<String, PipeDoc> bodies = new ConcurrentHashMap<>();
  final List<Staged> staged = new CopyOnWriteArrayList<>();
  final List<DocumentReference> reclaimed = new CopyOnWriteArrayList<>();
  final List<Boolean> blobRequests = new CopyOnWriteArrayList<>();

  @Override
  public PipeDoc hydrate(DocumentReference reference, Set<PipeDocPart> parts, boolean withBlobBytes) {
    blobRequests.add(withBlobBytes);
    PipeDoc doc = bodies.get(key(reference));
    if (doc == null) {
      throw new IllegalStateException("no body staged at " + key(reference));
    }
    return withBlobBytes ? doc : doc.toBuilder().clearBlobBag().build();
  }

  @Override
  public DocumentReference stage(PipeDoc document, String accountId, String graphId, String nodeId, boolean keep) {
    DocumentReference ref = DocumentReference.newBuilder().setDocId(document.getDocId()).setAccountId(accountId)
        .setGraphId(graphId).setGraphAddressId(nodeId).setKeep(keep).build();
    bodies.put(key(ref), document);
    staged.add(new Staged(accountId, graphId, nodeId, document.getDocId(), keep));
    return ref;
  }

  @Override
  public void reclaim(DocumentReference reference) {
    bodies.remove(key(reference));
    reclaimed.add(reference);
  }

  private static String key(DocumentReference ref) {
    return ref.getAccountId() + "/" + ref.getGraphId() + "/" + ref.getGraphAddressId() + "/" + ref.getDocId();
  }
}
