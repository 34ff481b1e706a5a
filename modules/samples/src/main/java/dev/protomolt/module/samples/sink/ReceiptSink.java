package dev.protomolt.module.samples.sink;

import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.io.IOException;

/**
 * Where indexing receipts go. The sample writes them to a file; the gateway or a Kafka producer
 * on the {@code DocumentIndexedEvent} topic can implement this later without touching the sink.
 */
@FunctionalInterface
public interface ReceiptSink {

  /** Emits one receipt; a failure makes the hop retry (indexing is idempotent per doc_id). */
  void emit(DocumentIndexedEvent receipt) throws IOException;
}
