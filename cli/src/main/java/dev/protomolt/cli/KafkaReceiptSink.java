package dev.protomolt.cli;

import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.module.samples.sink.ReceiptSink;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes the sample sink's receipts on {@code indexing-receipts}, where the indexing ledger's
 * MSK mapping reads them, keyed by account and document so one document's receipts stay in order.
 * The send is waited for: a receipt the broker did not take fails the hop, which is retried, and
 * the ledger ignores the duplicate attempt that a retry can produce.
 *
 * <p>The sample sink's receipts are not yet what the ledger accepts: {@code plan_id} is blank and
 * {@code node_id} names the graph node rather than the stored state. This publisher fills a blank
 * plan with the plan the local sink serves and turns a graph node id into the id of the stored
 * state at that node ({@link NodeIds}); what the sink did set correctly is kept (decision 0967).
 */
final class KafkaReceiptSink implements ReceiptSink {

  static final String TOPIC = "indexing-receipts";

  private final Producer<String, byte[]> producer;
  private final Duration acceptTimeout;
  private final String planId;

  /** @param planId the index plan the sink serves, stamped on receipts that name none */
  KafkaReceiptSink(Producer<String, byte[]> producer, Duration acceptTimeout, String planId) {
    this.producer = Objects.requireNonNull(producer, "producer");
    this.acceptTimeout = Objects.requireNonNull(acceptTimeout, "acceptTimeout");
    if (planId == null || planId.isBlank()) {
      throw new IllegalArgumentException(
          "planId: must name the sink's index plan, got '" + planId + "'");
    }
    this.planId = planId;
  }

  /** The receipt with a plan and a stored-state node id, as the indexing ledger requires. */
  DocumentIndexedEvent forTheLedger(DocumentIndexedEvent emitted) {
    DocumentIndexedEvent.Builder receipt = emitted.toBuilder();
    if (receipt.getPlanId().isBlank()) {
      receipt.setPlanId(planId);
    }
    if (!receipt.getNodeId().isBlank() && !isUuid(receipt.getNodeId())) {
      receipt.setNodeId(
          NodeIds.nodeId(
                  receipt.getDocId(),
                  receipt.getNodeId(),
                  receipt.getAccountId(),
                  receipt.getGraphId())
              .toString());
    }
    return receipt.build();
  }

  private static boolean isUuid(String value) {
    try {
      UUID.fromString(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public void emit(DocumentIndexedEvent emitted) throws IOException {
    DocumentIndexedEvent receipt = forTheLedger(emitted);
    String key = receipt.getAccountId() + "/" + receipt.getDocId();
    try {
      producer
          .send(new ProducerRecord<>(TOPIC, key, receipt.toByteArray()))
          .get(acceptTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(
          "interrupted while publishing the receipt for doc '" + receipt.getDocId() + "'", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(
          "the receipt for doc '"
              + receipt.getDocId()
              + "' was not accepted by "
              + TOPIC
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
