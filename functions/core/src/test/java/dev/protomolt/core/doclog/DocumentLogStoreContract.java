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
        moved.advanced(
            4, 33, "", new DocumentLogState.Seal(33, TextDigest.sha256("x"), "s3://b/logs/c/p"));

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

  @Test
  void textWithNulsAndALoneSurrogateRoundTripsExactly() {
    // Log lines are arbitrary text: a NUL, a control char and a high surrogate still waiting for
    // its pair must come back char for char, never replaced.
    String tail = "nul\u0000 bell\u0007 waiting \uD83D";
    DocumentLogState opened = store.createIfAbsent(DocumentLogState.opened(KEY, WINDOWS));
    DocumentLogState moved = opened.advanced(1, 8, tail, null);
    DocumentPart odd = DocumentPart.of(0, 0, "\u0000\uDE00lone low");

    assertThat(store.replace(moved, opened.version())).isTrue();
    store.putPart(KEY, odd);

    assertThat(store.load(KEY)).contains(moved);
    assertThat(store.parts(KEY)).containsExactly(odd);
  }

  @Test
  void aLogWrittenThroughTheStoreReadsBackWholeAndSealsWithTheOriginalsHash() {
    DocumentLog log = new DocumentLog(store, new InMemoryLogPartIndex());
    String original = "line one\nline two \uD83D\uDE00\nline three is longer\n";
    log.open(KEY, WINDOWS);
    for (int at = 0; at < original.length(); at += 7) {
      log.append(KEY, original.substring(at, Math.min(original.length(), at + 7)), at);
    }
    log.append(KEY, original.substring(0, 12), 0);

    assertThat(log.read(KEY)).contains(original);
    DocumentLog.Sealed sealed = log.seal(KEY);
    assertThat(sealed.sha256()).isEqualTo(TextDigest.sha256(original));
    assertThat(sealed.length()).isEqualTo(original.length());
    assertThat(log.read(KEY)).contains(original);
    assertThat(store.parts(KEY))
        .extracting(DocumentPart::text)
        .containsExactlyElementsOf(
            TextWindows.cut(original, WINDOWS).stream().map(DocumentPart::text).toList());
  }
}
