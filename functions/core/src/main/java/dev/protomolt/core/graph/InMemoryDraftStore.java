package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.GraphDraft;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Drafts in memory; like the DynamoDB adapter, expiry is decided when reading. */
public final class InMemoryDraftStore implements DraftStore {

  private final Map<String, GraphDraft> drafts = new ConcurrentHashMap<>();

  @Override
  public void put(GraphDraft draft) {
    drafts.put(draft.getDraftId(), draft);
  }

  @Override
  public Optional<GraphDraft> get(String draftId, Instant now) {
    GraphDraft draft = drafts.get(draftId);
    if (draft == null || !live(draft, now)) {
      return Optional.empty();
    }
    return Optional.of(draft);
  }

  @Override
  public boolean delete(String draftId, Instant now) {
    GraphDraft removed = drafts.remove(draftId);
    return removed != null && live(removed, now);
  }

  private static boolean live(GraphDraft draft, Instant now) {
    Instant expires =
        Instant.ofEpochSecond(draft.getExpiresAt().getSeconds(), draft.getExpiresAt().getNanos());
    return now.isBefore(expires);
  }
}
