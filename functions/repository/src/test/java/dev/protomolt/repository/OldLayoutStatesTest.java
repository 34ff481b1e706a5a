package dev.protomolt.repository;

import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CORE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PartFragment;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.parts.SplitDocument;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.reconcile.ReconcileReport;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * States stored before write segments existed ({@code <nodeId>/core.pb}, no write token) are read
 * as they are, carried from, and superseded and reclaimed like any other (decision 1602).
 */
class OldLayoutStatesTest {

  private static final String ACME = "old-acme";
  private static final String GRAPH = "old-graph";

  private static StoreHarness h;
  private static MovableClock clock;
  private static PipeDocStore store;
  private static S3BlobStore blobs;
  private static Drive pipeline;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    clock = new MovableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    blobs = new S3BlobStore(h.clients);
    store =
        new PipeDocStore(
            h.ledger,
            blobs,
            h.drives,
            new CachedAccountStatus(new PostgresAccountStatus(h.postgres.dataSource())),
            h.purgeEvents,
            clock);
    store.onAccountEvent(StoreHarness.platformAccount(ACME));
    pipeline = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
  }

  @AfterAll
  static void stop() {
    h.close();
  }

  /** Stores {@code doc} the way the store did before write tokens: fixed keys, an upserted row. */
  private static List<ObjectAddress> plantOldLayout(NodeCoordinates at, PipeDoc doc) {
    UUID nodeId = NodeIds.nodeId(at);
    SplitDocument split =
        new PipeDocPartCodec().split(ObjectKeys.forNode(pipeline.prefix(), nodeId), doc);
    List<ObjectAddress> written =
        split.fragments().stream().map(f -> new ObjectAddress(pipeline, f.objectKey())).toList();
    for (PartFragment f : split.fragments()) {
      blobs.put(new ObjectAddress(pipeline, f.objectKey()), f.bytes(), false);
    }
    long size =
        split.manifest().getEntriesList().stream()
            .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
            .mapToLong(PartManifestEntry::getSizeBytes)
            .sum();
    Instant now = clock.instant();
    h.ledger.upsert(
        new PipeDocRecord(
            nodeId,
            RowKind.PIPELINE,
            at.accountId(),
            at.docId(),
            at.graphId(),
            at.graphAddressId(),
            "default",
            pipeline.name(),
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
    return written;
  }

  private static boolean exists(ObjectAddress a) {
    try {
      blobs.get(a);
      return true;
    } catch (ObjectMissingException e) {
      return false;
    }
  }

  @Test
  void anOldLayoutStateIsReadCarriedFromAndReclaimedOnceSuperseded() {
    NodeCoordinates at = new NodeCoordinates("doc-old", "parser", ACME, GRAPH);
    PipeDoc old = SampleDocs.document("doc-old", 11, 2048, "set-a", "set-b");
    List<ObjectAddress> oldObjects = plantOldLayout(at, old);
    assertThat(oldObjects)
        .extracting(ObjectAddress::key)
        .contains(pipeline.prefix() + NodeIds.nodeId(at) + "/core.pb");
    DocumentReference ref = PipeDocStore.reference(at, false);

    // Read as it is: the manifest names the fixed keys and the reader follows them.
    assertThat(store.get(Saves.read(ref)).getPipedoc()).isEqualTo(old);

    // Carried from: the next node's copy gets its own keys, with the old bytes copied in.
    PipeDoc next =
        old.toBuilder()
            .setSearchMetadata(old.getSearchMetadata().toBuilder().setTitle("retitled"))
            .build();
    SavePipeDocResponse carried =
        store.save(
            Saves.partial(Saves.pipeline(ACME, GRAPH, "chunker", next), ref, PIPE_DOC_PART_CORE)
                .build());
    assertThat(store.get(Saves.read(carried.getDocumentRef())).getPipedoc()).isEqualTo(next);
    assertThat(carried.getManifest().getEntriesList())
        .filteredOn(e -> e.getState() == PartState.PART_STATE_PRESENT)
        .allSatisfy(e -> assertThat(e.getObjectKey()).matches(".*/w[0-9a-f]{16}/.*"));

    // Superseded: a new save takes the address, and the fixed-key objects wait out the grace.
    PipeDoc newer = SampleDocs.document("doc-old", 12, 1024, "set-a");
    store.save(Saves.pipeline(ACME, GRAPH, "parser", newer).build());
    assertThat(store.get(Saves.read(ref)).getPipedoc()).isEqualTo(newer);
    StorageReconciler reconciler =
        new StorageReconciler(
            h.postgres.dataSource(), blobs, ReconcilerSettings.dryRun().deleting(), clock);
    ReconcileReport early = reconciler.reconcile(pipeline);
    assertThat(early.supersededReclaimed()).isZero();
    assertThat(oldObjects).allMatch(OldLayoutStatesTest::exists);

    clock.advance(ReconcilerSettings.MINIMUM_AGE.plus(Duration.ofSeconds(1)));
    ReconcileReport due = reconciler.reconcile(pipeline);
    assertThat(due.supersededReclaimed()).isEqualTo(1);
    assertThat(due.supersededObjectsDeleted()).isEqualTo(oldObjects.size());
    assertThat(oldObjects).noneMatch(OldLayoutStatesTest::exists);
    assertThat(store.get(Saves.read(ref)).getPipedoc()).isEqualTo(newer);
    assertThat(store.get(Saves.read(carried.getDocumentRef())).getPipedoc()).isEqualTo(next);
  }
}
