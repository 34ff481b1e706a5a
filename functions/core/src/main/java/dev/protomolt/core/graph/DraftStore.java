package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.GraphDraft;
import java.time.Instant;
import java.util.Optional;

/**
 * Engine-side drafts, one per (cluster, graph, user), each with an expiry. Port: the DynamoDB
 * adapter has no TTL deletion it can rely on and no transactions, so expiry is decided on read.
 */
public interface DraftStore {

  /** Stores the draft (replacing any previous one with the same draft_id). */
  void put(GraphDraft draft);

  /** The draft if it exists and its expires_at is after {@code now}; an expired one is absent. */
  Optional<GraphDraft> get(String draftId, Instant now);

  /** Removes the draft; true when a live one was there. */
  boolean delete(String draftId, Instant now);
}
