package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link DocumentLogStore} owes {@link DocumentLog}. An adapter's test extends
 * this class and returns a fresh, empty store from {@link #newStore()}.
 */
public abstract class DocumentLogStoreContract {

  private static final WindowSpec WINDOWS = new WindowSpec(10, 2);
  private static final LogKey KEY = LogKey.workUnitLog("logs", "wu-contract");
  private static final LogKey OTHER = LogKey.executionTranscript("logs", "exec-contract");

  protected DocumentLogStore store;

  protected abstract DocumentLogStore newStore();

  @BeforeEach
  protected void freshStore() {
    store = newStore();
  }

  @Test
  void anUnknownLogLoadsAsAbsentWithNoParts() {
    assertThat(store.load(KEY)).isEmpty();
    assertThat(store.parts(KEY)).isEmpty();
  }

  @Test
  void createIfAbsentStoresOnceAndReturnsTheFirstState() {
    DocumentLogState first = DocumentLogState.opened(KEY, WINDOWS);
    DocumentLogState second = DocumentLogState.opened(KEY, WindowSpec.DEFAULT);

    assertThat(store.createIfAbsent(first)).isEqualTo(first);
    assertThat(store.createIfAbsent(second)).isEqualTo(first);
    assertThat(store.load(KEY)).contains(first);
  }

  @Test
  void replaceRoundTripsEveryFieldIncludingTheTailAndSeal() {
    DocumentLogState opened = store.createIfAbsent(DocumentLogState.opened(KEY, WINDOWS));
    DocumentLogState moved = opened.advanced(3, 24, "tail \uD83D\uDE00 é", null);
    DocumentLogState sealed =
        moved.advanced(4, 33, "", new DocumentLogState.Seal(33, TextDigest.sha256("x")));

    assertThat(store.replace(moved, opened.version())).isTrue();
    assertThat(store.load(KEY)).contains(moved);
    assertThat(store.replace(sealed, moved.version())).isTrue();
    assertThat(store.load(KEY)).contains(sealed);
  }

  @Test
  void replaceRefusesAStaleVersionAndKeepsTheStoredState() {
    DocumentLogState opened = store.createIfAbsent(DocumentLogState.opened(KEY, WINDOWS));
    DocumentLogState winner = opened.advanced(0, 0, "won", null);
    DocumentLogState loser = opened.advanced(0, 0, "lost", null);

    assertThat(store.replace(winner, opened.version())).isTrue();
    assertThat(store.replace(loser, opened.version())).isFalse();
    assertThat(store.load(KEY)).contains(winner);
  }

  @Test
  void replaceOfALogNeverCreatedIsRefused() {
    assertThat(store.replace(DocumentLogState.opened(KEY, WINDOWS), 0)).isFalse();
    assertThat(store.load(KEY)).isEmpty();
  }

  @Test
  void partsAreKeptPerLogInIndexOrderAndRewritingAnIndexReplacesIt() {
    DocumentPart second = DocumentPart.of(1, 8, "89abcdefgh");
    DocumentPart first = DocumentPart.of(0, 0, "0123456789");
    store.putPart(KEY, second);
    store.putPart(KEY, first);
    store.putPart(KEY, first);
    store.putPart(OTHER, DocumentPart.of(0, 0, "other \uD83D\uDE00"));

    assertThat(store.parts(KEY)).containsExactly(first, second);
    assertThat(store.parts(OTHER)).containsExactly(DocumentPart.of(0, 0, "other \uD83D\uDE00"));
  }
}
