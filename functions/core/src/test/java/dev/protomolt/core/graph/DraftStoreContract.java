package dev.protomolt.core.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.config.v1.GraphDraft;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link DraftStore} must do; subclassed by the in-memory store and the DynamoDB adapter. */
public abstract class DraftStoreContract {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  protected DraftStore store;

  protected abstract DraftStore emptyStore() throws Exception;

  @BeforeEach
  void freshStore() throws Exception {
    store = emptyStore();
  }

  private static GraphDraft draft(String id, Instant expires, Long baseVersion) {
    GraphDraft.Builder d =
        GraphDraft.newBuilder()
            .setDraftId(id)
            .setClusterId("c1")
            .setGraphId("g")
            .setUserId("ann")
            .setGraph(SampleGraphs.linear("g", 0))
            .setExpiresAt(
                Timestamp.newBuilder()
                    .setSeconds(expires.getEpochSecond())
                    .setNanos(expires.getNano()));
    if (baseVersion != null) {
      d.setBaseVersion(baseVersion);
    }
    return d.build();
  }

  @Test
  void roundTripsEveryFieldIncludingAbsentVersusZeroBaseVersion() {
    GraphDraft zero = draft("draft:c1:g:ann", NOW.plusSeconds(60), 0L);
    GraphDraft none = draft("draft:c1:g:bob", NOW.plusSeconds(60), null);
    store.put(zero);
    store.put(none);
    assertThat(store.get("draft:c1:g:ann", NOW)).contains(zero);
    assertThat(store.get("draft:c1:g:ann", NOW).orElseThrow().hasBaseVersion()).isTrue();
    assertThat(store.get("draft:c1:g:bob", NOW).orElseThrow().hasBaseVersion()).isFalse();
  }

  @Test
  void anExpiredDraftIsAbsentToReaders() {
    store.put(draft("draft:c1:g:ann", NOW.plusSeconds(60), 3L));
    assertThat(store.get("draft:c1:g:ann", NOW.plusSeconds(59))).isPresent();
    assertThat(store.get("draft:c1:g:ann", NOW.plusSeconds(60))).isEmpty();
    assertThat(store.delete("draft:c1:g:ann", NOW.plusSeconds(61)))
        .as("nothing live was deleted")
        .isFalse();
  }

  @Test
  void putReplacesAndDeleteRemoves() {
    store.put(draft("draft:c1:g:ann", NOW.plusSeconds(60), 3L));
    store.put(draft("draft:c1:g:ann", NOW.plusSeconds(600), 4L));
    assertThat(store.get("draft:c1:g:ann", NOW.plusSeconds(300)).orElseThrow().getBaseVersion())
        .isEqualTo(4);
    assertThat(store.delete("draft:c1:g:ann", NOW)).isTrue();
    assertThat(store.get("draft:c1:g:ann", NOW)).isEmpty();
    assertThat(store.delete("draft:c1:g:ann", NOW)).isFalse();
  }
}
