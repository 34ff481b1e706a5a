package dev.protomolt.repository.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.Blobs;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.events.v1.ParserProvenance;
import dev.protomolt.proto.events.v1.VectorSetProvenance;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.purge.StoragePurger;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IndexingLedgerTest {

  private static final String ACME = "ledger-acme";
  private static final String DS = "crawler-1";
  // Three ULIDs in time order.
  private static final String A1 = "01HZX3K8Q9M2N4P6R8S0T2V4W6";
  private static final String A2 = "01HZX3K8QAM2N4P6R8S0T2V4W6";
  private static final String A3 = "01HZX3K8QBM2N4P6R8S0T2V4W6";

  private static StoreHarness h;
  private static S3BlobStore blobs;
  private static IndexingLedger ledger;
  private static IndexingReceipts receipts;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    blobs = new S3BlobStore(h.clients);
    Clock clock = Clock.fixed(StoreHarness.NOW.plusSeconds(30), ZoneOffset.UTC);
    ledger = new IndexingLedger(h.postgres.dataSource(), clock);
    receipts =
        new IndexingReceipts(
            ledger,
            new SourceSettlement(h.postgres.dataSource(), h.ledger, blobs, h.drives, clock));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  private static DocumentIndexedEvent receipt(
      String docId, String attempt, IndexOutcome outcome, String parserVersion) {
    return DocumentIndexedEvent.newBuilder()
        .setAttemptId(attempt)
        .setAccountId(ACME)
        .setDocId(docId)
        .setPlanId("plan-1")
        .setIndexName("news")
        .setOutcome(outcome)
        .addParserChain(
            ParserProvenance.newBuilder()
                .setParserName("tika")
                .setParserVersion(parserVersion)
                .setNodeId("parser"))
        .addVectorSets(
            VectorSetProvenance.newBuilder()
                .setResultId("r-" + parserVersion)
                .setChunkConfigId("c")
                .setEmbeddingConfigId("e")
                .setDimensions(384)
                .setVectorCount(12))
        .build();
  }

  private static List<ReceiptOutcome.Kind> kinds(List<ReceiptOutcome> outcomes) {
    return outcomes.stream().map(ReceiptOutcome::kind).toList();
  }

  @Test
  void anOlderReceiptArrivingLateChangesNothing() {
    List<ReceiptOutcome> outcomes =
        ledger.apply(
            List.of(
                receipt("doc-ooo", A2, IndexOutcome.INDEX_OUTCOME_INDEXED, "2.0"),
                receipt("doc-ooo", A1, IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL, "1.0")));

    assertThat(kinds(outcomes))
        .containsExactly(ReceiptOutcome.Kind.APPLIED, ReceiptOutcome.Kind.STALE);
    var state = ledger.find(ACME, "doc-ooo", "plan-1", "news").orElseThrow();
    assertThat(state.outcome()).isEqualTo(IndexOutcome.INDEX_OUTCOME_INDEXED);
    assertThat(state.lastAttemptId()).isEqualTo(A2);
    assertThat(state.parserChain())
        .extracting(ParserProvenance::getParserVersion)
        .containsExactly("2.0");
    assertThat(state.vectorSets())
        .extracting(VectorSetProvenance::getResultId)
        .containsExactly("r-2.0");
  }

  @Test
  void aDuplicateIsANoOpAndANewerAttemptReplacesTheProvenance() {
    DocumentIndexedEvent first =
        receipt("doc-dup", A1, IndexOutcome.INDEX_OUTCOME_FAILED_RETRYABLE, "1.0");
    assertThat(kinds(ledger.apply(List.of(first, first))))
        .containsExactly(ReceiptOutcome.Kind.APPLIED, ReceiptOutcome.Kind.STALE);
    // Lower-case is the same ULID and is just as stale.
    assertThat(
            kinds(ledger.apply(List.of(first.toBuilder().setAttemptId(A1.toLowerCase()).build()))))
        .containsExactly(ReceiptOutcome.Kind.STALE);

    assertThat(
            kinds(
                ledger.apply(
                    List.of(receipt("doc-dup", A3, IndexOutcome.INDEX_OUTCOME_SKIPPED, "3.0")))))
        .containsExactly(ReceiptOutcome.Kind.APPLIED);

    var state = ledger.find(ACME, "doc-dup", "plan-1", "news").orElseThrow();
    assertThat(state.outcome()).isEqualTo(IndexOutcome.INDEX_OUTCOME_SKIPPED);
    assertThat(state.parserChain())
        .extracting(ParserProvenance::getParserVersion)
        .containsExactly("3.0");
    assertThat(state.vectorSets())
        .extracting(VectorSetProvenance::getResultId)
        .containsExactly("r-3.0");
  }

  @Test
  void malformedReceiptsAreRejectedNamingTheFieldWithoutStoppingTheBatch() {
    DocumentIndexedEvent good =
        receipt("doc-bad-batch", A1, IndexOutcome.INDEX_OUTCOME_INDEXED, "1.0");
    List<ReceiptOutcome> outcomes =
        ledger.apply(
            List.of(
                good.toBuilder().setAttemptId("not-a-ulid").build(),
                good.toBuilder().setPlanId(" ").build(),
                good.toBuilder().setOutcome(IndexOutcome.INDEX_OUTCOME_UNSPECIFIED).build(),
                good.toBuilder().addVectorSets(good.getVectorSets(0)).build(),
                good));

    assertThat(kinds(outcomes))
        .containsExactly(
            ReceiptOutcome.Kind.REJECTED,
            ReceiptOutcome.Kind.REJECTED,
            ReceiptOutcome.Kind.REJECTED,
            ReceiptOutcome.Kind.REJECTED,
            ReceiptOutcome.Kind.APPLIED);
    assertThat(outcomes.get(0).detail()).contains("attempt_id");
    assertThat(outcomes.get(1).detail()).contains("plan_id must not be blank");
    assertThat(outcomes.get(2).detail()).contains("outcome must be");
    assertThat(outcomes.get(3).detail()).contains("vector_sets[1].result_id");
  }

  /** An intake copy whose blobs hold inline bytes and a pointer to a raw intake object. */
  private static SavePipeDocResponse saveWithRawSource(String docId, ObjectAddress raw) {
    blobs.put(raw, "raw source bytes".getBytes(), false);
    PipeDoc base = SampleDocs.document(docId, 7, 512, "chunker-a");
    PipeDoc doc =
        base.toBuilder()
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlobs(
                        Blobs.newBuilder()
                            .addBlob(base.getBlobBag().getBlob())
                            .addBlob(
                                Blob.newBuilder()
                                    .setBlobId(docId + "-raw")
                                    .setFilename("source.pdf")
                                    .setSizeBytes(16)
                                    .setStorageRef(
                                        FileStorageReference.newBuilder()
                                            .setDriveName(raw.drive().name())
                                            .setObjectKey(raw.key())))))
            .build();
    return h.store.save(Saves.intake(ACME, DS, doc).build());
  }

  private static PipeDocManifest manifest(SavePipeDocResponse saved) {
    return h.store
        .getManifest(
            GetPipeDocManifestRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build())
        .getManifest();
  }

  private static PartManifestEntry blobsEntry(PipeDocManifest manifest) {
    return manifest.getEntriesList().stream()
        .filter(e -> e.getPart() == PipeDocPart.PIPE_DOC_PART_BLOBS)
        .findFirst()
        .orElseThrow();
  }

  private static boolean exists(ObjectAddress a) {
    try {
      blobs.get(a);
      return true;
    } catch (ObjectMissingException e) {
      return false;
    }
  }

  private static StorageReconciler reconcilerAt(Instant at) {
    return new StorageReconciler(
        h.postgres.dataSource(),
        blobs,
        ReconcilerSettings.dryRun(),
        Clock.fixed(at, ZoneOffset.UTC));
  }

  @Test
  void anIndexedReceiptSettlesTheSourceToAHuskKeepingItsHashAndPurgesTheRawObject()
      throws Exception {
    Drive intake = h.drives.find(ACME, DriveKind.INTAKE).orElseThrow();
    ObjectAddress raw = intake.address("raw/doc-settled.bin");
    SavePipeDocResponse saved = saveWithRawSource("doc-settled", raw);
    PartManifestEntry before = blobsEntry(saved.getManifest());

    List<IndexingReceipts.Handled> handled =
        receipts.handle(
            List.of(
                receipt("doc-settled", A1, IndexOutcome.INDEX_OUTCOME_INDEXED, "1.0").toBuilder()
                    .setNodeId(saved.getNodeId())
                    .build()));

    assertThat(handled)
        .singleElement()
        .satisfies(
            x -> {
              assertThat(x.outcome().kind()).isEqualTo(ReceiptOutcome.Kind.APPLIED);
              assertThat(x.settlement().settled()).as(x.settlement().detail()).isTrue();
            });
    PartManifestEntry after = blobsEntry(manifest(saved));
    assertThat(after.getState()).isEqualTo(PartState.PART_STATE_DELETED);
    assertThat(after.getDeletedReason()).isEqualTo("POST_PARSE_POLICY");
    assertThat(after.getSha256()).isEqualTo(before.getSha256());
    assertThat(after.getSizeBytes()).isEqualTo(before.getSizeBytes());
    PipeDoc husk = PipeDoc.parseFrom(blobs.get(new ObjectAddress(intake, after.getObjectKey())));
    assertThat(husk.getBlobBag().getBlobs().getBlobList())
        .allMatch(b -> b.getContentCase() == Blob.ContentCase.CONTENT_NOT_SET)
        .extracting(Blob::getBlobId)
        .containsExactly("doc-settled-src", "doc-settled-raw");
    assertThat(exists(raw)).as("the raw intake object is purged").isFalse();
    // The husk has a key of its own; the full BLOBS object a reader of the old manifest may still
    // fetch stays until the grace period is over, recorded as superseded.
    assertThat(after.getObjectKey()).isNotEqualTo(before.getObjectKey());
    ObjectAddress full = new ObjectAddress(intake, before.getObjectKey());
    assertThat(exists(full)).isTrue();
    // Settlement ran on the receipts' clock, 30 s after NOW.
    Instant graceOver = StoreHarness.NOW.plusSeconds(30).plus(ReconcilerSettings.MINIMUM_AGE);
    assertThat(reconcilerAt(graceOver.minusSeconds(1)).reconcile(intake).supersededReclaimed())
        .isZero();
    assertThat(exists(full)).isTrue();
    assertThat(reconcilerAt(graceOver).reconcile(intake).supersededReclaimed()).isEqualTo(1);
    assertThat(exists(full)).isFalse();
    assertThat(exists(new ObjectAddress(intake, after.getObjectKey()))).isTrue();
    // Everything but the source still reads.
    PipeDoc read = h.store.get(Saves.read(saved.getDocumentRef())).getPipedoc();
    assertThat(read.getSearchMetadata().getTitle()).isEqualTo("Document doc-settled");
    assertThat(read.hasBlobBag()).isFalse();

    // A redelivered receipt is stale in the ledger and finds nothing left to settle.
    var again =
        receipts.handle(
            List.of(
                receipt("doc-settled", A1, IndexOutcome.INDEX_OUTCOME_INDEXED, "1.0").toBuilder()
                    .setNodeId(saved.getNodeId())
                    .build()));
    assertThat(again.get(0).outcome().kind()).isEqualTo(ReceiptOutcome.Kind.STALE);
    assertThat(blobsEntry(manifest(saved))).isEqualTo(after);

    // Purging the settled row removes the husk too.
    h.purgeEvents.drain();
    h.store.delete(
        DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
    new StoragePurger(
            h.postgres.dataSource(),
            blobs,
            h.drives,
            Clock.fixed(StoreHarness.NOW.plusSeconds(90), ZoneOffset.UTC))
        .purge(h.purgeEvents.drain());
    assertThat(exists(new ObjectAddress(intake, after.getObjectKey()))).isFalse();
  }

  @Test
  void aTerminalFailureNeverSettlesNorDoesAStaleSuccessBehindIt() {
    Drive intake = h.drives.find(ACME, DriveKind.INTAKE).orElseThrow();
    ObjectAddress raw = intake.address("raw/doc-failed.bin");
    SavePipeDocResponse saved = saveWithRawSource("doc-failed", raw);

    List<IndexingReceipts.Handled> handled =
        receipts.handle(
            List.of(
                receipt("doc-failed", A2, IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL, "1.0")
                    .toBuilder()
                    .setDocumentRef(saved.getDocumentRef())
                    .build(),
                receipt("doc-failed", A1, IndexOutcome.INDEX_OUTCOME_INDEXED, "1.0").toBuilder()
                    .setDocumentRef(saved.getDocumentRef())
                    .build()));

    assertThat(handled).extracting(x -> x.settlement().settled()).containsExactly(false, false);
    assertThat(handled.get(1).settlement().detail()).contains("kept for re-parse");
    assertThat(blobsEntry(manifest(saved)).getState()).isEqualTo(PartState.PART_STATE_PRESENT);
    assertThat(exists(raw)).isTrue();
    assertThat(
            h.store
                .get(Saves.read(saved.getDocumentRef()))
                .getPipedoc()
                .getBlobBag()
                .getBlobs()
                .getBlob(0)
                .getData())
        .isNotEqualTo(ByteString.EMPTY);
  }

  @Test
  void aReceiptNamingAnotherDocumentsStoredStateSettlesNothing() {
    Drive intake = h.drives.find(ACME, DriveKind.INTAKE).orElseThrow();
    SavePipeDocResponse saved = saveWithRawSource("doc-owner", intake.address("raw/owner.bin"));

    var handled =
        receipts.handle(
            List.of(
                receipt("doc-intruder", A1, IndexOutcome.INDEX_OUTCOME_INDEXED, "1.0").toBuilder()
                    .setNodeId(saved.getNodeId())
                    .build()));

    assertThat(handled.get(0).settlement().settled()).isFalse();
    assertThat(handled.get(0).settlement().detail()).contains("not to the receipt's");
    assertThat(blobsEntry(manifest(saved)).getState()).isEqualTo(PartState.PART_STATE_PRESENT);
  }
}
