package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.StoragePurgeEvent;

/**
 * Where tombstones announce themselves: the storage-purge topic in production, keyed by
 * {@code node_id} so one row is never in two purgers' batches at once.
 */
public interface PurgeEventSink {

  /** Publishes the event; returns once it is durably accepted. */
  void publish(StoragePurgeEvent event);
}
