package dev.protomolt.module.samples.sink;

import com.google.protobuf.Timestamp;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.proto.events.v1.ParserProvenance;
import dev.protomolt.proto.events.v1.VectorSetProvenance;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The sample index sink: writes the document (title, body) and its embedded chunks (text and
 * vectors) into a local {@link LuceneIndex} and emits a {@code DocumentIndexedEvent} receipt for
 * every attempt, whatever its outcome. Each receipt goes with the ack ({@link
 * WorkContext#receipt}), which the gateway produces to {@code indexing-receipts} for the indexing
 * ledger, and to the local {@link ReceiptSink} (a file the search command reads). It names the plan
 * this sink serves and the stored state it indexed ({@link WorkContext#storedNodeId()}), as the
 * ledger requires. The document itself goes on unchanged.
 */
public final class DocumentIndexSink implements DocumentProcessor {

  private final LuceneIndex index;
  private final ReceiptSink receipts;
  private final String indexName;
  private final Clock clock;
  private final UlidGenerator attemptIds;

  public DocumentIndexSink(
      LuceneIndex index,
      ReceiptSink receipts,
      String indexName,
      Clock clock,
      UlidGenerator attemptIds) {
    this.index = Objects.requireNonNull(index, "index");
    this.receipts = Objects.requireNonNull(receipts, "receipts");
    this.indexName = Objects.requireNonNull(indexName, "indexName");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.attemptIds = Objects.requireNonNull(attemptIds, "attemptIds");
  }

  @Override
  public ModuleOutcome process(WorkContext work) throws IOException {
    PipeDoc document = work.document();
    DocumentIndexedEvent.Builder receipt = receiptFor(work, document);
    if (document.getDocId().isBlank()) {
      String detail = "doc_id is blank: the index keys every entry by doc_id";
      emit(
          work,
          receipt.setOutcome(IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL).setErrorMessage(detail));
      return ModuleOutcome.reject(RejectReason.REJECT_REASON_INVALID_INPUT, detail);
    }
    var search = document.getSearchMetadata();
    boolean anyVectors =
        search.getSemanticResultsList().stream()
            .flatMap(set -> set.getChunksList().stream())
            .anyMatch(chunk -> chunk.getEmbeddingInfo().getVectorCount() > 0);
    if (search.getTitle().isBlank() && search.getBody().isBlank() && !anyVectors) {
      String detail = "search_metadata has no title, no body and no vectors: nothing to index";
      emit(work, receipt.setOutcome(IndexOutcome.INDEX_OUTCOME_SKIPPED).setErrorMessage(detail));
      return ModuleOutcome.noOp(NoOpReason.NO_OP_REASON_NOT_APPLICABLE, detail);
    }
    LuceneIndex.Indexed indexed;
    try {
      indexed = index.index(document);
    } catch (DocumentRejectedException rejected) {
      emit(
          work,
          receipt
              .setOutcome(IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL)
              .setErrorMessage(rejected.getMessage()));
      return rejected.outcome();
    } catch (IOException e) {
      String detail = "writing the Lucene index at " + index.path() + " failed: " + e;
      emit(
          work,
          receipt.setOutcome(IndexOutcome.INDEX_OUTCOME_FAILED_RETRYABLE).setErrorMessage(detail));
      return ModuleOutcome.retry(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY, detail);
    }
    for (LuceneIndex.VectorSet set : indexed.vectorSets()) {
      receipt.addVectorSets(
          VectorSetProvenance.newBuilder()
              .setResultId(set.source().getResultId())
              .setChunkConfigId(set.source().getChunkConfigId())
              .setEmbeddingConfigId(set.source().getEmbeddingConfigId())
              .setDimensions(set.dimensions())
              .setVectorCount(set.vectors()));
    }
    // The receipt goes out only after the commit: a receipt always describes durable index state.
    emit(work, receipt.setOutcome(IndexOutcome.INDEX_OUTCOME_INDEXED));
    work.log(
        "indexed "
            + document.getDocId()
            + " into "
            + indexName
            + " with "
            + indexed.chunkDocuments()
            + " chunks");
    return ModuleOutcome.updated(document);
  }

  private void emit(WorkContext work, DocumentIndexedEvent.Builder receipt) throws IOException {
    DocumentIndexedEvent done = receipt.setIndexedAt(timestamp(clock.instant())).build();
    work.receipt(done);
    // A receipt that cannot be written throws: the worker loop turns that into a retryable
    // failure, and the re-run re-indexes idempotently before trying the receipt again.
    receipts.emit(done);
  }

  /**
   * The node's plan this sink writes: the one named like its index, else the node's only plan;
   * blank when the node names several others, for the gateway to refuse naming them.
   */
  private String planFor(WorkContext work) {
    List<String> plans = work.indexPlanIds();
    if (plans.contains(indexName)) {
      return indexName;
    }
    return plans.size() == 1 ? plans.getFirst() : "";
  }

  private DocumentIndexedEvent.Builder receiptFor(WorkContext work, PipeDoc document) {
    PipeStream stream = work.stream();
    String account = document.getOwnership().getAccountId();
    if (account.isBlank()) {
      account = stream.getMetadata().getAccountId();
    }
    DocumentIndexedEvent.Builder receipt =
        DocumentIndexedEvent.newBuilder()
            .setAttemptId(attemptIds.next())
            .setDocId(document.getDocId())
            .setAccountId(account)
            .setIndexName(indexName)
            .setGraphId(work.graphId())
            .setGraphVersion(work.graphVersion())
            .setPlanId(planFor(work))
            .setNodeId(work.storedNodeId());
    for (ParsedMetadata parsed : document.getParsedMetadataMap().values()) {
      receipt.addParserChain(
          ParserProvenance.newBuilder()
              .setParserName(parsed.getParserName())
              .setParserVersion(parsed.getParserVersion()));
    }
    return receipt;
  }

  private static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
