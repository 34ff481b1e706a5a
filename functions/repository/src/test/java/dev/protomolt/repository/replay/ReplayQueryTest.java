package dev.protomolt.repository.replay;

import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_BLOBS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CHUNKS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_PARSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.IndexingOutcomeFilter;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.ledger.IndexingLedger;
import dev.protomolt.repository.ledger.SourceSettlement;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ReplayQueryTest {

  private static final String ACME = "replay-acme";
  private static final String DS = "crawler";
  private static final String GRAPH = "news-graph";

  private static StoreHarness h;
  private static ReplayQuery query;
  private static SavePipeDocResponse d1;
  private static SavePipeDocResponse d1AtEnricher;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    h.store.onAccountEvent(StoreHarness.platformAccount("other"));
    query = new ReplayQuery(h.postgres.dataSource());
    d1 = intake("d1", "crawl-1");
    intake("d2", "crawl-1");
    intake("d3", "crawl-2");
    SavePipeDocResponse gone = intake("d4", "crawl-1");
    h.store.delete(DeletePipeDocRequest.newBuilder().setDocumentRef(gone.getDocumentRef()).build());
    h.store.save(
        Saves.intake("other", DS, SampleDocs.document("d1", 1, 256, "a"))
            .setCrawlId("crawl-1")
            .build());
    d1AtEnricher =
        h.store.save(
            Saves.pipeline(ACME, GRAPH, "enricher", SampleDocs.document("d1", 1, 256, "a"))
                .setCrawlId("crawl-1")
                .build());

    Clock clock = Clock.fixed(StoreHarness.NOW, ZoneOffset.UTC);
    IndexingLedger ledger = new IndexingLedger(h.postgres.dataSource(), clock);
    ledger.apply(
        List.of(
            receipt("d1", IndexOutcome.INDEX_OUTCOME_INDEXED),
            receipt("d2", IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL)));
    // d1's intake source is settled after indexing: it becomes a source receipt.
    new SourceSettlement(
            h.postgres.dataSource(), h.ledger, new S3BlobStore(h.clients), h.drives, clock)
        .settle(UUID.fromString(d1.getNodeId()), ACME, "d1");
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  private static SavePipeDocResponse intake(String docId, String crawlId) {
    return h.store.save(
        Saves.intake(ACME, DS, SampleDocs.document(docId, docId.hashCode(), 256, "a"))
            .setCrawlId(crawlId)
            .build());
  }

  private static DocumentIndexedEvent receipt(String docId, IndexOutcome outcome) {
    return DocumentIndexedEvent.newBuilder()
        .setAttemptId("01HZX3K8Q9M2N4P6R8S0T2V4W6")
        .setAccountId(ACME)
        .setDocId(docId)
        .setPlanId("plan")
        .setIndexName("news")
        .setOutcome(outcome)
        .build();
  }

  private static StreamDocumentsForReplayRequest.Builder request() {
    return StreamDocumentsForReplayRequest.newBuilder().setAccountId(ACME);
  }

  private static List<ReplayCandidate> run(StreamDocumentsForReplayRequest.Builder request) {
    List<ReplayCandidate> out = new ArrayList<>();
    query.stream(request.build(), out::add);
    return out;
  }

  private static List<String> docIds(List<ReplayCandidate> candidates) {
    return candidates.stream().map(c -> c.getDocumentRef().getDocId()).sorted().toList();
  }

  @Test
  void selectorsAreAndedOverLiveIntakeCopiesOfTheAccountOnly() {
    assertThat(docIds(run(request().setCrawlId("crawl-1")))).containsExactly("d1", "d2");
    assertThat(docIds(run(request().setCrawlId("crawl-1").addDocIds("d2").addDocIds("d3"))))
        .containsExactly("d2");
    assertThat(docIds(run(request().setDatasourceId(DS)))).containsExactly("d1", "d2", "d3");
    assertThat(run(request().setCrawlId("crawl-1")))
        .allSatisfy(
            c -> {
              assertThat(c.getDocumentRef().getGraphId()).isEqualTo("intake:" + ACME);
              assertThat(c.getCrawlId()).isEqualTo("crawl-1");
              assertThat(c.getDatasourceId()).isEqualTo(DS);
            });
  }

  @Test
  void keysetPagesWalkTheSameCandidatesAsTheStreamWithoutOverlap() {
    StreamDocumentsForReplayRequest selectors = request().setDatasourceId(DS).build();
    List<String> streamed = new ArrayList<>();
    query.stream(selectors, c -> streamed.add(c.getDocumentRef().getNodeId()));
    List<String> paged = new ArrayList<>();
    ReplayQuery.Cursor cursor = ReplayQuery.Cursor.START;
    int pages = 0;
    while (true) {
      ReplayQuery.Page page = query.page(selectors, cursor, 2);
      pages++;
      page.candidates().forEach(c -> paged.add(c.getDocumentRef().getNodeId()));
      // The cursor survives its text form, as the state machine carries it between invocations.
      cursor = ReplayQuery.Cursor.parse("progress.cursor", page.next().text());
      if (page.last()) {
        break;
      }
    }
    assertThat(paged).containsExactlyElementsOf(streamed).hasSize(3);
    assertThat(pages).isEqualTo(2);
    assertThat(query.count(selectors)).isEqualTo(3);
    assertThatThrownBy(() -> query.page(selectors, ReplayQuery.Cursor.START, 0))
        .hasMessageContaining("page_size");
    assertThatThrownBy(() -> ReplayQuery.Cursor.parse("progress.cursor", "yesterday"))
        .hasMessageContaining("progress.cursor");
  }

  @Test
  void timeBoundsAreExclusive() {
    Timestamp now = Timestamp.newBuilder().setSeconds(StoreHarness.NOW.getEpochSecond()).build();
    Timestamp earlier = now.toBuilder().setSeconds(now.getSeconds() - 1).build();
    Timestamp later = now.toBuilder().setSeconds(now.getSeconds() + 1).build();
    assertThat(docIds(run(request().setModifiedAfter(earlier).setModifiedBefore(later))))
        .containsExactly("d1", "d2", "d3");
    assertThat(run(request().setModifiedBefore(now))).isEmpty();
    assertThat(run(request().setModifiedAfter(now))).isEmpty();
  }

  @Test
  void theIndexingOutcomeFilterReadsTheIndexingLedger() {
    assertThat(
            docIds(
                run(
                    request()
                        .setIndexingOutcome(
                            IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_INDEXED))))
        .containsExactly("d1");
    assertThat(
            docIds(
                run(
                    request()
                        .setIndexingOutcome(IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_FAILED))))
        .containsExactly("d2");
    assertThat(
            docIds(
                run(
                    request()
                        .setIndexingOutcome(
                            IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_NEVER_INDEXED))))
        .containsExactly("d3");
  }

  @Test
  void aGraphTargetSelectsTheInteriorNodesCopy() {
    List<ReplayCandidate> found =
        run(request().addDocIds("d1").setGraphId(GRAPH).setGraphAddressId("enricher"));
    assertThat(found)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getDocumentRef().getNodeId()).isEqualTo(d1AtEnricher.getNodeId());
              assertThat(c.getEligibility())
                  .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);
            });
  }

  @Test
  void eachCandidateCarriesAVerdictForTheRequiredParts() {
    ReplayCandidate needsSource =
        run(request().addDocIds("d1").addRequiredParts(PIPE_DOC_PART_BLOBS)).getFirst();
    assertThat(needsSource.getEligibility())
        .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_SOURCE_RECEIPT);
    assertThat(needsSource.getMissingPartsList()).containsExactly(PIPE_DOC_PART_BLOBS);

    ReplayCandidate downstream =
        run(request()
                .addDocIds("d1")
                .addRequiredParts(PIPE_DOC_PART_CHUNKS)
                .addRequiredParts(PIPE_DOC_PART_PARSED))
            .getFirst();
    assertThat(downstream.getEligibility())
        .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);

    assertThat(run(request().addDocIds("d2")).getFirst().getEligibility())
        .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);
  }

  @Test
  void badRequestsAreRefusedNamingTheFieldAndRule() {
    assertRefused(
        StreamDocumentsForReplayRequest.newBuilder().addDocIds("d1"), "account_id", "required");
    assertRefused(request(), "account_id", "bare account_id");
    assertRefused(
        request().setGraphId(GRAPH).setGraphAddressId("enricher"), "account_id", "bare account_id");
    assertRefused(request().addDocIds("d1").setGraphId(GRAPH), "graph_address_id", "together");
    assertRefused(request().addDocIds("d1").setGraphAddressId("enricher"), "graph_id", "together");
    assertRefused(request().addDocIds(" "), "doc_ids[0]", "blank");
    assertRefused(
        request().addDocIds("d1").addRequiredParts(PipeDocPart.PIPE_DOC_PART_UNSPECIFIED),
        "required_parts[0]",
        "CORE");
    assertRefused(request().addDocIds("d1").setPageSize(5000), "page_size", "1000");
    Timestamp t = Timestamp.newBuilder().setSeconds(100).build();
    assertRefused(
        request().setModifiedAfter(t).setModifiedBefore(t), "modified_before", "later than");
  }

  private static void assertRefused(
      StreamDocumentsForReplayRequest.Builder request, String field, String rule) {
    assertThatThrownBy(() -> run(request))
        .isInstanceOfSatisfying(
            PipeDocStoreException.InvalidRequest.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).contains(rule);
            });
  }
}
