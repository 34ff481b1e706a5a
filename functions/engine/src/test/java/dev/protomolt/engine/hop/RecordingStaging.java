package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The real document store ({@link PipeDocStoreStaging} over the repository's store on S3Proxy and
 * embedded PostgreSQL, one per test JVM) with every stage and level 2 request recorded,
 * so the hop tests can check which edge behaviour staged what with which keep flag.
 */
final class RecordingStaging implements DocumentStaging {

  record Staged(String accountId, String graphId, String nodeId, String docId, boolean keep) {}

  private static StoreHarness shared;

  final List<Staged> staged = new CopyOnWriteArrayList<>();
  final List<Boolean> blobRequests = new CopyOnWriteArrayList<>();

  /** The next this many hydrations fail as the store failing transiently would. */
  final AtomicInteger failingHydrations = new AtomicInteger();

  /** The next this many stages fail as the store failing transiently would. */
  final AtomicInteger failingStages = new AtomicInteger();

  private final DocumentStaging store = new PipeDocStoreStaging(harness().store);

  /** The shared real store, for tests that save intake copies directly. */
  static PipeDocStore store() {
    return harness().store;
  }

  static synchronized StoreHarness harness() {
    if (shared == null) {
      shared = StoreHarness.start();
      shared.store.onAccountEvent(StoreHarness.platformAccount("acme"));
      StoreHarness started = shared;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      started.close();
                    } catch (Exception ignored) {
                      // The JVM is exiting; the fixtures hold only temporary data.
                    }
                  }));
    }
    return shared;
  }

  @Override
  public PipeDoc hydrate(
      DocumentReference reference, Set<PipeDocPart> parts, boolean withBlobBytes) {
    if (failingHydrations.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new TransientStoreFailure(
          "reading doc '" + reference.getDocId() + "' failed: S3 timed out (injected)", null);
    }
    blobRequests.add(withBlobBytes);
    return store.hydrate(reference, parts, withBlobBytes);
  }

  @Override
  public DocumentReference stage(
      PipeDoc document, String accountId, String graphId, String nodeId, boolean keep) {
    return recorded(
        "staging",
        new Staged(accountId, graphId, nodeId, document.getDocId(), keep),
        () -> store.stage(document, accountId, graphId, nodeId, keep));
  }

  @Override
  public DocumentReference stageFrom(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep) {
    return recorded(
        "staging",
        new Staged(accountId, graphId, nodeId, document.getDocId(), keep),
        () -> store.stageFrom(source, document, accountId, graphId, nodeId, keep));
  }

  @Override
  public DocumentReference stageFromWithoutBlobs(
      DocumentReference source,
      PipeDoc document,
      String accountId,
      String graphId,
      String nodeId,
      boolean keep) {
    return recorded(
        "staging",
        new Staged(accountId, graphId, nodeId, document.getDocId(), keep),
        () -> store.stageFromWithoutBlobs(source, document, accountId, graphId, nodeId, keep));
  }

  @Override
  public DocumentReference carryAll(
      DocumentReference source, String accountId, String graphId, String nodeId, boolean keep) {
    return recorded(
        "carrying",
        new Staged(accountId, graphId, nodeId, source.getDocId(), keep),
        () -> store.carryAll(source, accountId, graphId, nodeId, keep));
  }

  @Override
  public DocumentReference carryAllUnlessHeld(
      DocumentReference source, String accountId, String graphId, String nodeId) {
    return recorded(
        "carrying",
        new Staged(accountId, graphId, nodeId, source.getDocId(), true),
        () -> store.carryAllUnlessHeld(source, accountId, graphId, nodeId));
  }

  /**
   * {@code save} on the real store, recorded as {@code staged} once it succeeded; first the next
   * injected stage failure, if any is left, named "{@code verb} doc 'd' failed".
   */
  private DocumentReference recorded(String verb, Staged staged, Supplier<DocumentReference> save) {
    if (failingStages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new TransientStoreFailure(
          verb + " doc '" + staged.docId() + "' failed: S3 timed out (injected)", null);
    }
    DocumentReference ref = save.get();
    this.staged.add(staged);
    return ref;
  }

  @Override
  public Optional<PipeDocManifest> activeManifest(DocumentReference reference) {
    return store.activeManifest(reference);
  }

  @Override
  public void reclaim(DocumentReference reference) {
    store.reclaim(reference);
  }
}
