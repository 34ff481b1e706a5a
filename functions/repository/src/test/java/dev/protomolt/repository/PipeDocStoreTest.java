package dev.protomolt.repository;

import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_BLOBS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CHUNKS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CORE;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_PARSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.fixtures.TransferCounter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

class PipeDocStoreTest {

  private static final String ACME = "acme";
  private static final String BYOB = "byob";
  private static final String GRAPH = "news-graph";
  private static final int BLOB_BYTES = 64 * 1024;

  private static StoreHarness h;
  private static PipeDocStore store;
  private static TransferCounter counter;

  /**
   * When armed, holds each GetObject until {@code parties} of them are in flight together, so a
   * read that fetched its parts one after another would never see them all at once.
   */
  private static final class GetRendezvous implements ExecutionInterceptor {
    volatile CountDownLatch armed;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();

    @Override
    public void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes attributes) {
      CountDownLatch latch = armed;
      if (latch == null
          || !"GetObject".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
        return;
      }
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      latch.countDown();
      try {
        // A generous guard, not a timing assertion: a serial read waits it out and then fails.
        latch.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      inFlight.decrementAndGet();
    }
  }

  private static final GetRendezvous rendezvous = new GetRendezvous();

  @BeforeAll
  static void start() {
    h = StoreHarness.start(List.of(rendezvous));
    store = h.store;
    counter = h.counter;
    store.onAccountEvent(StoreHarness.platformAccount(ACME));
    store.onAccountEvent(StoreHarness.customerAccount(BYOB));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  @BeforeEach
  void reset() {
    counter.reset();
  }

  private static String uniqueId() {
    return "doc-" + UUID.randomUUID();
  }

  // ------------------------------------------------------------------------------------ full saves

  @Test
  void aFullSaveWritesEveryPartAndReadsBackByteForByte() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 1, BLOB_BYTES, "chunker-a", "embedder-b");

    SavePipeDocResponse saved = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());

    assertThat(saved.getDeduplicated()).isFalse();
    assertThat(saved.getPartsWrittenList())
        .containsExactlyInAnyOrder(
            PIPE_DOC_PART_CORE, PIPE_DOC_PART_BLOBS, PIPE_DOC_PART_PARSED, PIPE_DOC_PART_CHUNKS);
    assertThat(counter.calls("PutObject")).isEqualTo(5);
    assertThat(saved.getManifest().getEntriesList())
        .extracting(PartManifestEntry::getState)
        .containsOnly(PartState.PART_STATE_PRESENT);
    assertThat(saved.getManifest().getEntriesList())
        .allSatisfy(
            e ->
                assertThat(e.getObjectKey())
                    // A pipeline save without keep is a CACHE copy: under cache/ (decision 1556).
                    .startsWith("cache/acme/pipeline/" + saved.getNodeId() + "/")
                    .doesNotContain(doc.getDocId()));

    PipeDoc read = store.get(Saves.read(saved.getDocumentRef())).getPipedoc();
    assertThat(read.toByteArray()).isEqualTo(doc.toByteArray());
    assertThat(counter.calls("GetObject")).isEqualTo(5);
  }

  @Test
  void emptyPartsWriteNoObject() {
    PipeDoc doc = PipeDoc.newBuilder().setDocId(uniqueId()).build();

    SavePipeDocResponse saved = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());

    assertThat(counter.calls("PutObject")).isEqualTo(1);
    assertThat(saved.getManifest().getEntriesList())
        .filteredOn(e -> e.getState() == PartState.PART_STATE_EMPTY)
        .extracting(PartManifestEntry::getPart)
        .containsExactlyInAnyOrder(PIPE_DOC_PART_BLOBS, PIPE_DOC_PART_PARSED, PIPE_DOC_PART_CHUNKS);
    assertThat(store.get(Saves.read(saved.getDocumentRef())).getPipedoc()).isEqualTo(doc);
  }

  // --------------------------------------------------------------------------------- partial saves

  @Test
  void aPartialSaveMovesNoByteOfTheCarriedPartsThroughTheClient() {
    PipeDoc parsedOnce = SampleDocs.document(uniqueId(), 2, BLOB_BYTES, "chunker-a", "embedder-b");
    SavePipeDocResponse first =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", parsedOnce).build());
    PipeDoc enriched =
        parsedOnce.toBuilder()
            .putParsedMetadata(
                "ner",
                ParsedMetadata.newBuilder()
                    .setParserName("ner")
                    .setData(
                        Struct.newBuilder()
                            .putFields("people", Value.newBuilder().setStringValue("Ada").build()))
                    .build())
            .build();
    counter.reset();

    SavePipeDocResponse second =
        store.save(
            Saves.partial(
                    Saves.pipeline(ACME, GRAPH, "enricher", enriched),
                    first.getDocumentRef(),
                    PIPE_DOC_PART_PARSED)
                .build());

    long parsedSize = entry(second, PIPE_DOC_PART_PARSED).getSizeBytes();
    assertThat(second.getPartsWrittenList()).containsExactly(PIPE_DOC_PART_PARSED);
    assertThat(second.getBytesWritten()).isEqualTo(parsedSize);
    assertThat(counter.calls("PutObject")).isEqualTo(1);
    assertThat(counter.bytesSent("PutObject")).isEqualTo(parsedSize);
    assertThat(counter.calls("CopyObject")).as("CORE, BLOBS and two chunk sets").isEqualTo(4);
    assertThat(counter.calls("GetObject")).isZero();
    // The carried parts total more than the 64 KiB source blob; what crossed the client in
    // either direction is the written part plus a few hundred bytes of CopyObject XML per copy.
    assertThat(counter.totalBodyBytes()).isLessThan(parsedSize + 4 * 1024);
    assertThat(entry(second, PIPE_DOC_PART_BLOBS).getWrittenBy().getCarriedForward()).isTrue();
    assertThat(entry(second, PIPE_DOC_PART_PARSED).getWrittenBy().getCarriedForward()).isFalse();

    assertThat(store.get(Saves.read(second.getDocumentRef())).getPipedoc().toByteArray())
        .isEqualTo(enriched.toByteArray());
    // The source state is untouched.
    assertThat(store.get(Saves.read(first.getDocumentRef())).getPipedoc()).isEqualTo(parsedOnce);
  }

  @Test
  void chunkSetsWrittenReplacesOneChunkSetAndCarriesItsSiblings() {
    PipeDoc chunked = SampleDocs.document(uniqueId(), 3, 1024, "chunker-a", "embedder-b");
    SavePipeDocResponse first = store.save(Saves.pipeline(ACME, GRAPH, "chunker", chunked).build());
    SemanticProcessingResult reembedded =
        chunked.getSearchMetadata().getSemanticResults(1).toBuilder()
            .setEmbeddingConfigId("minilm-v2")
            .build();
    PipeDoc embedded =
        chunked.toBuilder()
            .setSearchMetadata(
                chunked.getSearchMetadata().toBuilder().setSemanticResults(1, reembedded))
            .build();
    counter.reset();

    SavePipeDocResponse second =
        store.save(
            Saves.pipeline(ACME, GRAPH, "embedder", embedded)
                .setCopyUnwrittenPartsFrom(first.getDocumentRef())
                .addChunkSetsWritten("embedder-b")
                .build());

    assertThat(counter.calls("PutObject")).isEqualTo(1);
    assertThat(counter.calls("CopyObject")).as("CORE, BLOBS, PARSED, chunker-a").isEqualTo(4);
    assertThat(second.getManifest().getEntriesList())
        .filteredOn(e -> e.getPart() == PIPE_DOC_PART_CHUNKS)
        .extracting(PartManifestEntry::getSubKey, PartManifestEntry::getOrdinal)
        .containsExactly(Tuple.tuple("chunker-a", 0), Tuple.tuple("embedder-b", 1));
    assertThat(store.get(Saves.read(second.getDocumentRef())).getPipedoc().toByteArray())
        .isEqualTo(embedded.toByteArray());
  }

  @Test
  void aCopySourceThatIsGoneIsTypedSoTheCallerCanRetryAsAFullSave() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 4, 1024, "chunker-a");
    SavePipeDocResponse first = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    String blobsKey = entry(first, PIPE_DOC_PART_BLOBS).getObjectKey();
    try (S3Client admin = h.platform.adminClient()) {
      admin.deleteObject(
          DeleteObjectRequest.builder().bucket(StoreHarness.PLATFORM_BUCKET).key(blobsKey).build());
    }

    var partial =
        Saves.partial(
                Saves.pipeline(ACME, GRAPH, "enricher", doc),
                first.getDocumentRef(),
                PIPE_DOC_PART_PARSED)
            .build();
    assertThatThrownBy(() -> store.save(partial))
        .isInstanceOf(PipeDocStoreException.CopySourceGone.class)
        .hasMessageContaining("part BLOBS")
        .hasMessageContaining(blobsKey);

    SavePipeDocResponse full =
        store.save(partial.toBuilder().clearPartsWritten().clearCopyUnwrittenPartsFrom().build());
    assertThat(store.get(Saves.read(full.getDocumentRef())).getPipedoc()).isEqualTo(doc);
  }

  @Test
  void listingEveryPartNeedsNoCopySource() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 17, 512, "chunker-a");
    DocumentReference neverStored =
        PipeDocStore.reference(new NodeCoordinates(doc.getDocId(), "nowhere", ACME, GRAPH), false);

    SavePipeDocResponse saved =
        store.save(
            Saves.partial(
                    Saves.pipeline(ACME, GRAPH, "all", doc),
                    neverStored,
                    PIPE_DOC_PART_CORE,
                    PIPE_DOC_PART_BLOBS,
                    PIPE_DOC_PART_PARSED,
                    PIPE_DOC_PART_CHUNKS)
                .build());

    assertThat(counter.calls("CopyObject")).isZero();
    assertThat(store.get(Saves.read(saved.getDocumentRef())).getPipedoc()).isEqualTo(doc);
  }

  @Test
  void aSourceEntryClaimingPresentWithABlankKeyIsACopySourceGone() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 5, 512, "chunker-a");
    SavePipeDocResponse first = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    PipeDocRecord row = h.ledger.find(UUID.fromString(first.getNodeId())).orElseThrow();
    var manifest = row.manifest().toBuilder();
    for (int i = 0; i < manifest.getEntriesCount(); i++) {
      if (manifest.getEntries(i).getPart() == PIPE_DOC_PART_CORE) {
        manifest.setEntries(i, manifest.getEntries(i).toBuilder().clearObjectKey());
      }
    }
    h.ledger.upsert(
        new PipeDocRecord(
            row.nodeId(),
            row.rowKind(),
            row.accountId(),
            row.docId(),
            row.graphId(),
            row.graphAddressId(),
            row.clusterId(),
            row.driveName(),
            row.status(),
            manifest.build(),
            row.checksum(),
            row.sizeBytes(),
            row.keep(),
            row.crawlId(),
            row.datasourceId(),
            row.graphVersion(),
            row.createdAt(),
            row.updatedAt()));

    assertThatThrownBy(
            () ->
                store.save(
                    Saves.partial(
                            Saves.pipeline(ACME, GRAPH, "next", doc),
                            first.getDocumentRef(),
                            PIPE_DOC_PART_PARSED)
                        .build()))
        .isInstanceOf(PipeDocStoreException.CopySourceGone.class)
        .hasMessageContaining("part CORE is PRESENT but gives no object_key");
  }

  @Test
  void aTombstonedCopySourceIsGone() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 6, 512);
    SavePipeDocResponse first = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    assertThat(
            store
                .delete(
                    DeletePipeDocRequest.newBuilder()
                        .setDocumentRef(first.getDocumentRef())
                        .build())
                .getTombstoned())
        .isTrue();

    assertThatThrownBy(
            () ->
                store.save(
                    Saves.partial(
                            Saves.pipeline(ACME, GRAPH, "next", doc),
                            first.getDocumentRef(),
                            PIPE_DOC_PART_PARSED)
                        .build()))
        .isInstanceOf(PipeDocStoreException.CopySourceGone.class)
        .hasMessageContaining("no live stored state " + first.getNodeId());
    assertThatThrownBy(() -> store.get(Saves.read(first.getDocumentRef())))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
  }

  @Test
  void carryForwardAcrossDrivesWithDifferentCredentialsUsesEachDrivesClient() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 7, 8 * 1024, "chunker-a");
    SavePipeDocResponse intake = store.save(Saves.intake(BYOB, "crawler-1", doc).build());
    assertThat(entry(intake, PIPE_DOC_PART_BLOBS).getObjectKey())
        .startsWith(intake.getNodeId() + "/");
    PipeDoc parsed =
        doc.toBuilder()
            .putParsedMetadata("ner", ParsedMetadata.newBuilder().setParserName("ner").build())
            .build();
    counter.reset();

    SavePipeDocResponse staged =
        store.save(
            Saves.partial(
                    Saves.pipeline(BYOB, GRAPH, "parser", parsed),
                    intake.getDocumentRef(),
                    PIPE_DOC_PART_PARSED)
                .build());

    assertThat(counter.calls("CopyObject")).as("no single client can copy between them").isZero();
    assertThat(counter.calls("GetObject"))
        .as("CORE, BLOBS, chunk set read from the customer")
        .isEqualTo(3);
    assertThat(counter.calls("PutObject")).as("three carried + PARSED written").isEqualTo(4);
    assertThat(store.get(Saves.read(staged.getDocumentRef())).getPipedoc().toByteArray())
        .isEqualTo(parsed.toByteArray());
  }

  // ---------------------------------------------------------------------------------------- dedupe

  @Test
  void anIntakeSaveOfStoredContentSkipsThePutUnlessForced() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 8, 2048, "chunker-a");
    SavePipeDocResponse first = store.save(Saves.intake(ACME, "crawler-1", doc).build());
    assertThat(first.getDeduplicated()).isFalse();
    assertThat(counter.requests())
        .filteredOn(s -> s.operation().equals("PutObject"))
        .noneMatch(s -> TransferCounter.carriesSha256Checksum(s.request()));
    counter.reset();

    SavePipeDocResponse again = store.save(Saves.intake(ACME, "crawler-1", doc).build());
    assertThat(again.getDeduplicated()).isTrue();
    assertThat(again.getNodeId()).isEqualTo(first.getNodeId());
    assertThat(again.getManifest().getChecksum()).isEqualTo(first.getManifest().getChecksum());
    assertThat(counter.calls("PutObject")).isZero();

    SavePipeDocResponse forced =
        store.save(Saves.intake(ACME, "crawler-1", doc).setForceSave(true).build());
    assertThat(forced.getDeduplicated()).isFalse();
    assertThat(counter.calls("PutObject")).isEqualTo(4);
    assertThat(counter.requests())
        .filteredOn(s -> s.operation().equals("PutObject"))
        .allMatch(s -> TransferCounter.carriesSha256Checksum(s.request()));

    PipeDoc changed =
        doc.toBuilder()
            .setSearchMetadata(doc.getSearchMetadata().toBuilder().setTitle("revised"))
            .build();
    counter.reset();
    assertThat(store.save(Saves.intake(ACME, "crawler-1", changed).build()).getDeduplicated())
        .isFalse();
    assertThat(counter.calls("PutObject")).isEqualTo(4);
  }

  @Test
  void pipelineSavesAreNeverDeduplicated() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 9, 256);
    store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    counter.reset();

    assertThat(store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build()).getDeduplicated())
        .isFalse();
    assertThat(counter.calls("PutObject")).isEqualTo(3);
  }

  @Test
  void aCarryUnlessHeldLeavesAnAddressAlreadyHoldingTheSourcesContent() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 11, BLOB_BYTES, "chunker-a");
    DocumentReference memo =
        store
            .save(Saves.pipeline(ACME, GRAPH, "parser.memo", doc).setKeep(true).build())
            .getDocumentRef();
    SavePipeDocRequest restore =
        Saves.pipeline(ACME, GRAPH, "parser", PipeDoc.newBuilder().setDocId(doc.getDocId()).build())
            .setKeep(true)
            .setCopyUnwrittenPartsFrom(memo)
            .build();
    counter.reset();
    SavePipeDocResponse first = store.carryAllUnlessHeld(restore);
    assertThat(first.getDeduplicated()).as("nothing at parser yet").isFalse();
    assertThat(counter.calls("CopyObject")).as("CORE, BLOBS, PARSED, chunker-a").isEqualTo(4);
    counter.reset();

    SavePipeDocResponse again = store.carryAllUnlessHeld(restore);

    assertThat(again.getDeduplicated()).isTrue();
    assertThat(counter.calls("CopyObject") + counter.calls("PutObject")).isZero();
    assertThat(again.getManifest())
        .as("the stored state, untouched")
        .isEqualTo(first.getManifest());
    assertThat(store.get(Saves.read(again.getDocumentRef())).getPipedoc()).isEqualTo(doc);

    PipeDoc changed =
        doc.toBuilder()
            .setSearchMetadata(doc.getSearchMetadata().toBuilder().setTitle("re-parsed"))
            .build();
    store.save(Saves.pipeline(ACME, GRAPH, "parser.memo", changed).setKeep(true).build());
    counter.reset();
    SavePipeDocResponse changedCarry = store.carryAllUnlessHeld(restore);
    assertThat(changedCarry.getDeduplicated()).as("the source's content changed").isFalse();
    assertThat(counter.calls("CopyObject")).isEqualTo(4);
    assertThat(store.get(Saves.read(changedCarry.getDocumentRef())).getPipedoc())
        .isEqualTo(changed);
  }

  @Test
  void aCacheCopyIsAlwaysMadeSinceAReclaimNamesTheExactCopy() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 12, 256);
    DocumentReference source =
        store
            .save(Saves.pipeline(ACME, GRAPH, "parser", doc).setKeep(true).build())
            .getDocumentRef();
    SavePipeDocRequest carry =
        Saves.pipeline(
                ACME, GRAPH, "chunker", PipeDoc.newBuilder().setDocId(doc.getDocId()).build())
            .setKeep(false)
            .setCopyUnwrittenPartsFrom(source)
            .build();
    SavePipeDocResponse first = store.carryAllUnlessHeld(carry);
    counter.reset();

    SavePipeDocResponse again = store.carryAllUnlessHeld(carry);

    assertThat(again.getDeduplicated()).isFalse();
    assertThat(counter.calls("CopyObject")).isPositive();
    assertThat(entry(again, PIPE_DOC_PART_CORE).getObjectKey())
        .as("a copy of its own")
        .isNotEqualTo(entry(first, PIPE_DOC_PART_CORE).getObjectKey());
    assertThatThrownBy(
            () ->
                store.carryAllUnlessHeld(
                    carry.toBuilder().addPartsWritten(PIPE_DOC_PART_PARSED).build()))
        .isInstanceOf(PipeDocStoreException.InvalidRequest.class)
        .hasMessageContaining("parts_written");
  }

  // ----------------------------------------------------------------------------------------- reads

  @Test
  void aMaskedReadFetchesOnlyTheRequestedParts() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 10, BLOB_BYTES, "chunker-a", "embedder-b");
    DocumentReference ref =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build()).getDocumentRef();
    counter.reset();

    var parsedOnly = store.get(Saves.read(ref, PIPE_DOC_PART_PARSED));

    assertThat(counter.calls("GetObject")).isEqualTo(1);
    assertThat(counter.bytesReceived("GetObject")).isLessThan(1024);
    assertThat(parsedOnly.getPartsReturnedList()).containsExactly(PIPE_DOC_PART_PARSED);
    assertThat(parsedOnly.getPipedoc().hasBlobBag()).isFalse();
    assertThat(parsedOnly.getPipedoc().getParsedMetadataMap())
        .isEqualTo(doc.getParsedMetadataMap());
    counter.reset();

    var oneChunkSet =
        store.get(
            GetPipeDocRequest.newBuilder()
                .setDocumentRef(ref)
                .addParts(PIPE_DOC_PART_CHUNKS)
                .addChunkSets("embedder-b")
                .build());

    assertThat(counter.calls("GetObject")).isEqualTo(1);
    assertThat(oneChunkSet.getPipedoc().getSearchMetadata().getSemanticResultsList())
        .extracting(SemanticProcessingResult::getResultId)
        .containsExactly("embedder-b");
  }

  @Test
  void aFullReadFetchesItsPartsAllAtOnce() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 18, 4096, "chunker-a");
    DocumentReference ref =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build()).getDocumentRef();
    rendezvous.maxInFlight.set(0);
    rendezvous.armed = new CountDownLatch(4);
    try {
      assertThat(store.get(Saves.read(ref)).getPipedoc()).isEqualTo(doc);
    } finally {
      rendezvous.armed = null;
    }

    assertThat(rendezvous.maxInFlight).as("GETs in flight together").hasValue(4);
  }

  @Test
  void theManifestAloneFetchesNoBytes() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 11, 1024, "chunker-a");
    SavePipeDocResponse saved =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).setKeep(true).build());
    counter.reset();

    var manifest =
        store.getManifest(
            GetPipeDocManifestRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());

    assertThat(manifest.getManifest()).isEqualTo(saved.getManifest());
    assertThat(manifest.getKeep()).isTrue();
    assertThat(counter.requests()).isEmpty();
  }

  @Test
  void aMissingObjectIsReportedNamingThePart() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 12, 1024, "chunker-a", "embedder-b");
    SavePipeDocResponse saved = store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    PartManifestEntry chunkSet =
        saved.getManifest().getEntriesList().stream()
            .filter(e -> e.getSubKey().equals("embedder-b"))
            .findFirst()
            .orElseThrow();
    try (S3Client admin = h.platform.adminClient()) {
      admin.deleteObject(
          DeleteObjectRequest.builder()
              .bucket(StoreHarness.PLATFORM_BUCKET)
              .key(chunkSet.getObjectKey())
              .build());
    }

    assertThatThrownBy(() -> store.get(Saves.read(saved.getDocumentRef())))
        .isInstanceOf(PipeDocStoreException.PartUnreadable.class)
        .hasMessageContaining("part CHUNKS chunk set 'embedder-b'")
        .hasMessageContaining(chunkSet.getObjectKey());
    // A mask that leaves the missing chunk set out still reads.
    assertThat(
            store
                .get(Saves.read(saved.getDocumentRef(), PIPE_DOC_PART_CORE))
                .getPipedoc()
                .getDocId())
        .isEqualTo(doc.getDocId());
  }

  @Test
  void noLedgerConnectionIsHeldWhileObjectStorageIsCalled() throws SQLException {
    // Nothing else runs in this class concurrently, so any checked-out connection seen while an
    // S3 request is on the wire would be one the store holds across the round trip.
    h.connectionsHeldDuringS3.set(0);
    PipeDoc doc = SampleDocs.document(uniqueId(), 16, 4096, "chunker-a");
    SavePipeDocResponse first = store.save(Saves.intake(ACME, "crawler-9", doc).build());
    SavePipeDocResponse second =
        store.save(
            Saves.partial(
                    Saves.pipeline(ACME, GRAPH, "parser", doc),
                    first.getDocumentRef(),
                    PIPE_DOC_PART_PARSED)
                .build());
    store.get(Saves.read(second.getDocumentRef()));

    assertThat(
            counter.calls("PutObject") + counter.calls("CopyObject") + counter.calls("GetObject"))
        .as("object storage was called")
        .isGreaterThan(8);
    assertThat(h.connectionsHeldDuringS3).hasValue(0);

    // The probe does see a connection that is held: hold one ourselves and read again.
    try (Connection _ = h.postgres.dataSource().getConnection()) {
      store.get(Saves.read(second.getDocumentRef()));
    }
    assertThat(h.connectionsHeldDuringS3.get()).isGreaterThanOrEqualTo(1);
  }

  // -------------------------------------------------------------------------------------- accounts

  @Test
  void anUnprovisionedAccountIsRefusedAndNothingIsWritten() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 13, 256);

    assertThatThrownBy(() -> store.save(Saves.intake("ghost", "crawler-1", doc).build()))
        .isInstanceOf(PipeDocStoreException.AccountNotProvisioned.class)
        .hasMessageContaining("ghost:intake");
    assertThat(counter.requests()).isEmpty();
  }

  @Test
  void aDeactivatedAccountIsRefusedAtOnceAndAReactivatedOneWritesAgain() {
    store.onAccountEvent(StoreHarness.platformAccount("flip"));
    PipeDoc doc = SampleDocs.document(uniqueId(), 14, 256);
    store.save(Saves.intake("flip", "crawler-1", doc).build());

    store.onAccountEvent(
        AccountEvent.newBuilder()
            .setAccountId("flip")
            .setType(AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED)
            .build());
    assertThatThrownBy(() -> store.save(Saves.intake("flip", "crawler-1", doc).build()))
        .isInstanceOf(PipeDocStoreException.AccountInactive.class);

    store.onAccountEvent(
        AccountEvent.newBuilder()
            .setAccountId("flip")
            .setType(AccountEventType.ACCOUNT_EVENT_TYPE_REACTIVATED)
            .build());
    assertThat(store.save(Saves.intake("flip", "crawler-1", doc).build()).getNodeId()).isNotBlank();
  }

  // -------------------------------------------------------------------------------------- identity

  @Test
  void blankOrCrossedIdentitiesAreRefusedNamingTheField() {
    PipeDoc doc = SampleDocs.document(uniqueId(), 15, 64);
    assertRefused(() -> store.save(Saves.intake(" ", "ds", doc).build()), "account_id");
    assertRefused(
        () -> store.save(Saves.intake(ACME, "ds", doc).clearGraphId().build()), "graph_id");
    assertRefused(
        () -> store.save(Saves.intake(ACME, "ds", doc).setGraphId("intake:other").build()),
        "graph_id");
    assertRefused(() -> store.save(Saves.intake(ACME, "", doc).build()), "datasource_id");
    assertRefused(
        () -> store.save(Saves.intake(ACME, "ds", doc).setClusterId("c").build()), "cluster_id");
    assertRefused(
        () -> store.save(Saves.pipeline(ACME, "intake:acme", "n", doc).build()), "graph_id");
    assertRefused(
        () -> store.save(Saves.pipeline(ACME, GRAPH, "  ", doc).build()), "graph_location_id");
    assertRefused(
        () -> store.save(Saves.pipeline(ACME, GRAPH, "n", doc).clearGraphLocationId().build()),
        "graph_address");
    assertRefused(
        () ->
            store.save(
                Saves.pipeline(ACME, GRAPH, "n", doc.toBuilder().setDocId("").build()).build()),
        "pipedoc.doc_id");
    assertRefused(
        () ->
            store.save(
                Saves.partial(
                        Saves.pipeline(ACME, GRAPH, "n", doc),
                        DocumentReference.getDefaultInstance(),
                        PIPE_DOC_PART_CORE)
                    .clearCopyUnwrittenPartsFrom()
                    .build()),
        "copy_unwritten_parts_from");

    DocumentReference ref =
        PipeDocStore.reference(new NodeCoordinates("d1", "parser", ACME, GRAPH), false);
    assertRefused(
        () -> store.get(Saves.read(ref.toBuilder().setGraphId("").build())),
        "document_ref.graph_id");
    assertRefused(
        () ->
            store.get(Saves.read(ref.toBuilder().setNodeId(UUID.randomUUID().toString()).build())),
        "document_ref.node_id");
    assertRefused(
        () ->
            store.getManifest(
                GetPipeDocManifestRequest.newBuilder()
                    .setDocumentRef(ref.toBuilder().setAccountId(""))
                    .build()),
        "document_ref.account_id");
    assertRefused(
        () ->
            store.delete(
                DeletePipeDocRequest.newBuilder()
                    .setDocumentRef(ref.toBuilder().setDocId(" "))
                    .build()),
        "document_ref.doc_id");
    assertRefused(
        () ->
            store.get(
                GetPipeDocRequest.newBuilder()
                    .setDocumentRef(ref)
                    .addParts(PIPE_DOC_PART_CORE)
                    .addChunkSets("x")
                    .build()),
        "chunk_sets");
    assertThat(counter.requests()).as("no refused call reached object storage").isEmpty();
  }

  private static void assertRefused(ThrowableAssert.ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            PipeDocStoreException.InvalidRequest.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageStartingWith(field + ": ");
  }

  private static PartManifestEntry entry(SavePipeDocResponse saved, PipeDocPart part) {
    return saved.getManifest().getEntriesList().stream()
        .filter(e -> e.getPart() == part)
        .findFirst()
        .orElseThrow();
  }
}
