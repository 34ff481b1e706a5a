package dev.protomolt.gateway;

import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.util.List;

/**
 * Where the gateway produces the indexing receipts a sink module sends with its ack: {@code
 * indexing-receipts}, which the indexing ledger and settlement consume. Returns once every receipt
 * is accepted, so the hop is completed only after its receipts are durable.
 */
@FunctionalInterface
public interface ReceiptProducer {

  /** A gateway that takes no receipts: an ack carrying any is refused, naming why. */
  ReceiptProducer NONE =
      receipts -> {
        throw new IllegalStateException(
            "this gateway produces no indexing receipts (it was started without a Kafka producer"
                + " for indexing-receipts)");
      };

  /**
   * @throws RuntimeException when a receipt was not accepted; the hop is then not completed
   */
  void produce(List<DocumentIndexedEvent> receipts);
}
