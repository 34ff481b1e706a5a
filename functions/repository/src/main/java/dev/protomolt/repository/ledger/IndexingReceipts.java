package dev.protomolt.repository.ledger;

import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.repository.DocumentReferences;
import dev.protomolt.repository.PipeDocStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The application service behind the indexing-receipts topic: records each receipt in the
 * indexing ledger, then settles the indexed stored state's source when the document is indexed
 * and no index reports it failed. A failed document keeps its source for re-parse. Consuming the
 * topic is the Lambda handler's job; this class takes a decoded batch.
 */
public final class IndexingReceipts {

  private final IndexingLedger ledger;
  private final SourceSettlement settlement;

  public IndexingReceipts(IndexingLedger ledger, SourceSettlement settlement) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.settlement = Objects.requireNonNull(settlement, "settlement");
  }

  /** One line per receipt: how the ledger took it, and what settlement did. */
  public record Handled(ReceiptOutcome outcome, SourceSettlement.Settled settlement) {}

  public List<Handled> handle(List<DocumentIndexedEvent> batch) {
    List<ReceiptOutcome> outcomes = ledger.apply(batch);
    List<Handled> handled = new ArrayList<>();
    for (ReceiptOutcome outcome : outcomes) {
      DocumentIndexedEvent receipt = batch.get(outcome.index());
      handled.add(new Handled(outcome, settle(outcome, receipt)));
    }
    return handled;
  }

  private SourceSettlement.Settled settle(ReceiptOutcome outcome, DocumentIndexedEvent receipt) {
    if (outcome.kind() == ReceiptOutcome.Kind.REJECTED) {
      return new SourceSettlement.Settled(false, "receipt rejected");
    }
    if (receipt.getOutcome() != IndexOutcome.INDEX_OUTCOME_INDEXED) {
      return new SourceSettlement.Settled(
          false, "outcome " + receipt.getOutcome() + " never settles");
    }
    // Decided from the ledger, not the receipt: a stale INDEXED receipt behind a newer failure,
    // or another index's failure, keeps the source. A redelivered receipt settles again, which
    // finishes a settlement a crash interrupted.
    Set<IndexOutcome> recorded = ledger.outcomes(receipt.getAccountId(), receipt.getDocId());
    if (recorded.contains(IndexOutcome.INDEX_OUTCOME_FAILED_TERMINAL)
        || recorded.contains(IndexOutcome.INDEX_OUTCOME_FAILED_RETRYABLE)) {
      return new SourceSettlement.Settled(
          false, "an index reports the document failed; the" + " source is kept for re-parse");
    }
    UUID nodeId;
    if (!receipt.getNodeId().isEmpty()) {
      nodeId = UUID.fromString(receipt.getNodeId());
    } else if (receipt.hasDocumentRef()) {
      try {
        nodeId =
            NodeIds.nodeId(
                DocumentReferences.coordinates(receipt.getDocumentRef(), "document_ref"));
      } catch (PipeDocStoreException.InvalidRequest e) {
        return new SourceSettlement.Settled(false, e.getMessage());
      }
    } else {
      return new SourceSettlement.Settled(
          false, "the receipt names no stored state (node_id or" + " document_ref)");
    }
    return settlement.settle(nodeId, receipt.getAccountId(), receipt.getDocId());
  }
}
