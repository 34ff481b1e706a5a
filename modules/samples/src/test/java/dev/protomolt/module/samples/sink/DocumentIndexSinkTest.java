package dev.protomolt.module.samples.sink;

import static dev.protomolt.module.samples.SampleWork.run;
import static dev.protomolt.module.samples.SampleWork.updated;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import dev.protomolt.module.samples.SampleWork;
import dev.protomolt.module.samples.chunker.DocumentChunker;
import dev.protomolt.module.samples.embedder.DocumentEmbedder;
import dev.protomolt.module.samples.embedder.HashedNgramEmbedder;
import dev.protomolt.module.samples.parser.DocumentParser;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The four samples in a row on the committed sample files, ending in a real Lucene index. */
class DocumentIndexSinkTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-01T12:00:00Z"), ZoneOffset.UTC);

  @TempDir Path folder;
  private final List<DocumentIndexedEvent> receipts = new ArrayList<>();
  private LuceneIndex index;
  private DocumentIndexSink sink;

  @BeforeEach
  void openIndex() throws IOException {
    index = LuceneIndex.open(folder.resolve("index"));
    sink =
        new DocumentIndexSink(
            index, receipts::add, "test-index", CLOCK, new UlidGenerator(CLOCK, new Random(3)));
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  private static PipeDoc throughThePipeline(String file, String mime) throws IOException {
    byte[] bytes;
    try (InputStream in = DocumentIndexSinkTest.class.getResourceAsStream("/samples/" + file)) {
      bytes = in.readAllBytes();
    }
    PipeDoc raw =
        PipeDoc.newBuilder()
            .setDocId(file)
            .setOwnership(OwnershipContext.newBuilder().setAccountId("acct-1"))
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder()
                            .setData(ByteString.copyFrom(bytes))
                            .setMimeType(mime)
                            .setFilename(file)))
            .build();
    PipeDoc parsed = updated(run(new DocumentParser(CLOCK), raw));
    PipeDoc chunked = updated(run(new DocumentChunker(), parsed));
    return updated(run(new DocumentEmbedder(), chunked));
  }

  @Test
  void indexesDocumentsSearchesByTextAndVectorAndEmitsOneReceiptEach() throws IOException {
    List<PipeDoc> documents =
        List.of(
            throughThePipeline("harbour-notes.txt", "text/plain"),
            throughThePipeline("lighthouse.html", "text/html"),
            throughThePipeline("tide-tables.md", "text/markdown"));
    for (PipeDoc document : documents) {
      assertThat(updated(run(sink, document))).isEqualTo(document);
    }

    List<SearchHit> text = index.search().text("breakwater storms", 5);
    assertThat(text).isNotEmpty();
    assertThat(text.getFirst().docId()).isEqualTo("harbour-notes.txt");
    assertThat(text.getFirst().title()).isEqualTo("Harbour maintenance notes");
    assertThat(text.getFirst().snippet()).contains("breakwater");

    List<SearchHit> vector =
        IndexSearch.at(folder.resolve("index"))
            .vector("the lamp was lit and the fog signal", new HashedNgramEmbedder(256), 3);
    assertThat(vector.getFirst().docId()).isEqualTo("lighthouse.html");
    assertThat(vector.getFirst().chunkId()).startsWith("chunks-");
    assertThat(vector.getFirst().title()).isEqualTo("The lighthouse keeper's log");

    assertThat(receipts)
        .hasSize(3)
        .allSatisfy(
            receipt -> {
              assertThat(receipt.getOutcome()).isEqualTo(IndexOutcome.INDEX_OUTCOME_INDEXED);
              assertThat(receipt.getAttemptId()).hasSize(26);
              assertThat(UlidGenerator.timestampOf(receipt.getAttemptId()))
                  .isEqualTo(CLOCK.millis());
              assertThat(receipt.getAccountId()).isEqualTo("acct-1");
              assertThat(receipt.getIndexName()).isEqualTo("test-index");
              assertThat(receipt.getGraphId()).isEqualTo("graph-demo");
              assertThat(receipt.getParserChain(0).getParserName())
                  .isEqualTo(DocumentParser.PARSER_NAME);
              assertThat(receipt.getVectorSetsList())
                  .singleElement()
                  .satisfies(
                      set -> {
                        assertThat(set.getDimensions()).isEqualTo(256);
                        assertThat(set.getEmbeddingConfigId())
                            .isEqualTo("hashed-char-ngram-3-5-fnv1a-d256-v1");
                        assertThat(set.getVectorCount()).isPositive();
                      });
            });
    assertThat(receipts)
        .extracting(DocumentIndexedEvent::getAttemptId)
        .isSorted()
        .doesNotHaveDuplicates();
  }

  @Test
  void theReceiptRidesTheAckNamingTheNodesPlanAndTheStoredState() throws Exception {
    PipeDoc document = throughThePipeline("harbour-notes.txt", "text/plain");
    WorkContext work =
        WorkContext.forUnit(
            SampleWork.contextFor(document, Struct.getDefaultInstance()).unit().toBuilder()
                .addIndexPlanIds("plan-other")
                .addIndexPlanIds("test-index")
                .setStoredNodeId("4b1f1b1e-5d1f-4bb0-9a39-0b9f57e0d7a1")
                .build());

    sink.process(work);

    assertThat(work.receipts())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getPlanId()).isEqualTo("test-index");
              assertThat(r.getNodeId()).isEqualTo("4b1f1b1e-5d1f-4bb0-9a39-0b9f57e0d7a1");
              assertThat(r).isEqualTo(receipts.getLast());
            });
  }

  @Test
  void reIndexingADocumentReplacesItInsteadOfDuplicatingIt() throws IOException {
    PipeDoc document = throughThePipeline("harbour-notes.txt", "text/plain");
    run(sink, document);
    run(sink, document);
    assertThat(index.search().text("breakwater", 10)).hasSize(1);
    int chunks = document.getSearchMetadata().getSemanticResults(1).getChunksCount();
    assertThat(index.search().vector(new HashedNgramEmbedder(256).embed("breakwater"), 50))
        .hasSize(chunks);
    assertThat(receipts)
        .hasSize(2)
        .extracting(DocumentIndexedEvent::getAttemptId)
        .doesNotHaveDuplicates();
  }

  @Test
  void badDocumentsGetATypedOutcomeAndAReceiptThatSaysWhy() throws IOException {
    ModuleOutcome blankId = run(sink, PipeDoc.newBuilder().setDocId("").build());
    assertThat(blankId)
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "doc_id is blank: the index keys every entry by doc_id"));
    assertThat(receipts.getLast().getOutcome())
        .isEqualTo(IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL);

    ModuleOutcome empty = run(sink, PipeDoc.newBuilder().setDocId("empty").build());
    assertThat(empty).isInstanceOf(ModuleOutcome.NoOp.class);
    assertThat(((ModuleOutcome.NoOp) empty).reason())
        .isEqualTo(NoOpReason.NO_OP_REASON_NOT_APPLICABLE);
    assertThat(receipts.getLast().getOutcome()).isEqualTo(IndexOutcome.INDEX_OUTCOME_SKIPPED);

    PipeDoc document = throughThePipeline("tide-tables.md", "text/markdown");
    var search = document.getSearchMetadata().toBuilder();
    var set = search.getSemanticResults(1).toBuilder();
    var chunk = set.getChunks(0).toBuilder();
    chunk.getEmbeddingInfoBuilder().setVector(5, Float.NaN);
    set.setChunks(0, chunk);
    search.setSemanticResults(1, set);
    ModuleOutcome nan = run(sink, document.toBuilder().setSearchMetadata(search).build());
    assertThat(nan)
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "search_metadata.semantic_results[1].chunks[0].embedding_info.vector[5] is NaN;"
                    + " vectors must be finite"));
    assertThat(receipts.getLast().getOutcome())
        .isEqualTo(IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL);
    assertThat(index.search().text("tide", 5)).isEmpty();
  }

  @Test
  void aReceiptThatCannotBeWrittenMakesTheHopRetry() throws IOException {
    DocumentIndexSink failing =
        new DocumentIndexSink(
            index,
            receipt -> {
              throw new IOException("receipt topic unavailable");
            },
            "test-index",
            CLOCK,
            new UlidGenerator(CLOCK, new Random(3)));
    ModuleOutcome outcome = run(failing, throughThePipeline("harbour-notes.txt", "text/plain"));
    assertThat(outcome).isInstanceOf(ModuleOutcome.RetryableFailure.class);
    var retry = (ModuleOutcome.RetryableFailure) outcome;
    assertThat(retry.reason()).isEqualTo(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY);
    assertThat(retry.detail()).contains("receipt topic unavailable");
  }

  @Test
  void jsonLinesReceiptsReadBackAsWritten() throws IOException {
    JsonLinesReceiptSink file = new JsonLinesReceiptSink(folder.resolve("out/receipts.jsonl"));
    DocumentIndexSink toFile =
        new DocumentIndexSink(
            index, file, "test-index", CLOCK, new UlidGenerator(CLOCK, new Random(3)));
    run(toFile, throughThePipeline("lighthouse.html", "text/html"));
    run(toFile, PipeDoc.newBuilder().setDocId("empty").build());
    assertThat(file.readAll())
        .extracting(DocumentIndexedEvent::getOutcome)
        .containsExactly(IndexOutcome.INDEX_OUTCOME_INDEXED, IndexOutcome.INDEX_OUTCOME_SKIPPED);
  }
}
