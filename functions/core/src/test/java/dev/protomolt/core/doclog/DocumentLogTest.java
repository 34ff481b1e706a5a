package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.doclog.DocumentLogRefusal.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DocumentLogTest {

  private static final WindowSpec TEN_BY_TWO = new WindowSpec(10, 2);
  private static final LogKey KEY = LogKey.workUnitLog("logs", "wu-1");

  private final InMemoryDocumentLogStore store = new InMemoryDocumentLogStore();
  private final InMemoryLogPartIndex index = new InMemoryLogPartIndex();
  private final DocumentLog log = new DocumentLog(store, index);

  @Test
  void openIsIdempotentAndFixesTheWindows() {
    DocumentLogState first = log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "abc", 0);
    DocumentLogState again = log.open(KEY, TEN_BY_TWO);
    assertThat(first.length()).isZero();
    assertThat(again.length()).isEqualTo(3);
    assertThatThrownBy(() -> log.open(KEY, WindowSpec.DEFAULT))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class, r -> assertThat(r.reason()).isEqualTo(Reason.WINDOWS_DIFFER))
        .hasMessage(
            "windows: log logs:logs/work-units/wu-1 was opened with size 10 and overlap 2;"
                + " windows are fixed at open (got size 1000 and overlap 150)");
  }

  @Test
  void aPartIsWrittenAndSearchableTheMomentItsWindowCompletesBeforeSeal() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "boot ok ", 0);
    assertThat(store.parts(KEY)).isEmpty();
    assertThat(index.query("boot", 10)).isEmpty();

    DocumentLog.Appended appended = log.append(KEY, "disk full", 8);

    assertThat(appended.emitted()).containsExactly(DocumentPart.of(0, 0, "boot ok di"));
    assertThat(store.parts(KEY)).containsExactly(DocumentPart.of(0, 0, "boot ok di"));
    assertThat(index.query("BOOT", 10))
        .containsExactly(new LogPartIndex.Hit(KEY, 0, 0, "boot ok di"));
    assertThat(store.load(KEY).orElseThrow().sealed()).isFalse();
  }

  @Test
  void theUnsealedTailIsPersistedSoAnotherInstanceContinuesTheLog() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "0123456789abc", 0);
    DocumentLogState state = store.load(KEY).orElseThrow();
    assertThat(state.tail()).isEqualTo("89abc");
    assertThat(state.tailStart()).isEqualTo(8);
    assertThat(state.nextPartIndex()).isEqualTo(1);

    DocumentLog elsewhere = new DocumentLog(store, index);
    elsewhere.append(KEY, "defgh", 13);
    elsewhere.seal(KEY);

    assertThat(store.parts(KEY)).isEqualTo(TextWindows.cut("0123456789abcdefgh", TEN_BY_TWO));
  }

  @Test
  void aRedeliveredAppendIsSkippedAndAnOverlappingOneAddsOnlyWhatIsNew() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "hello ", 0);

    DocumentLog.Appended again = log.append(KEY, "hello ", 0);
    DocumentLog.Appended overlapping = log.append(KEY, "lo world", 3);

    assertThat(again.added()).isZero();
    assertThat(again.skipped()).isEqualTo(6);
    assertThat(overlapping.skipped()).isEqualTo(3);
    assertThat(overlapping.added()).isEqualTo(5);
    assertThat(overlapping.length()).isEqualTo(11);
    log.seal(KEY);
    assertThat(store.parts(KEY)).isEqualTo(TextWindows.cut("hello world", TEN_BY_TWO));
  }

  @Test
  void anOffsetPastTheEndIsAGapAndIsRefusedWithoutChangingTheLog() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "abc", 0);
    DocumentLogState before = store.load(KEY).orElseThrow();

    assertThatThrownBy(() -> log.append(KEY, "xyz", 5))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class,
            r -> {
              assertThat(r.reason()).isEqualTo(Reason.GAP);
              assertThat(r.field()).isEqualTo("producerOffset");
            })
        .hasMessage(
            "producerOffset: 5 is past the end of log logs:logs/work-units/wu-1, which"
                + " holds 3 chars; taking it would leave a gap of 2 chars (append from offset 3"
                + " instead)");
    assertThat(store.load(KEY)).contains(before);
  }

  @Test
  void aRedeliveryWithDifferentTextIsAConflict() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "abcdef", 0);
    assertThatThrownBy(() -> log.append(KEY, "dXfgh", 3))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class, r -> assertThat(r.reason()).isEqualTo(Reason.CONFLICT))
        .hasMessage(
            "text: differs at offset 4 from the text log logs:logs/work-units/wu-1"
                + " already holds; a redelivered append must repeat the same text");
    assertThat(store.load(KEY).orElseThrow().length()).isEqualTo(6);
  }

  @Test
  void sealWritesTheTrailingPartAndRecordsTheOriginal() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "0123456789abcde", 0);
    assertThat(store.parts(KEY)).hasSize(1);

    DocumentLog.Sealed sealed = log.seal(KEY);

    assertThat(store.parts(KEY))
        .containsExactly(DocumentPart.of(0, 0, "0123456789"), DocumentPart.of(1, 8, "89abcde"));
    assertThat(sealed)
        .isEqualTo(new DocumentLog.Sealed(KEY, 2, 15, TextDigest.sha256("0123456789abcde")));
    assertThat(index.query("89abcde", 10)).extracting(LogPartIndex.Hit::index).containsExactly(1);
    assertThat(log.seal(KEY)).isEqualTo(sealed);
  }

  @Test
  void sealingAnEmptyLogWritesNoPart() {
    log.open(KEY, TEN_BY_TWO);
    assertThat(log.seal(KEY)).isEqualTo(new DocumentLog.Sealed(KEY, 0, 0, TextDigest.sha256("")));
    assertThat(store.parts(KEY)).isEmpty();
  }

  @Test
  void anAppendThatAddsTextAfterSealIsRefusedButALateRedeliveryIsNot() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "done", 0);
    log.seal(KEY);

    assertThat(log.append(KEY, "one", 1).added()).isZero();
    assertThatThrownBy(() -> log.append(KEY, "more", 4))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class, r -> assertThat(r.reason()).isEqualTo(Reason.SEALED))
        .hasMessage(
            "key: log logs:logs/work-units/wu-1 is sealed at 4 chars; an append may not"
                + " add text to it");
  }

  @Test
  void aLogMustBeOpenBeforeAppendOrSeal() {
    assertThatThrownBy(() -> log.append(KEY, "x", 0))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class, r -> assertThat(r.reason()).isEqualTo(Reason.NOT_OPEN))
        .hasMessage(
            "key: no log is open under logs:logs/work-units/wu-1; open it before"
                + " appending or sealing");
    assertThatThrownBy(() -> log.seal(KEY)).isInstanceOf(DocumentLogRefusal.class);
  }

  @Test
  void textAndOffsetAreValidated() {
    log.open(KEY, TEN_BY_TWO);
    assertThatThrownBy(() -> log.append(KEY, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("text: must not be null");
    assertThatThrownBy(() -> log.append(KEY, "x", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("producerOffset: must not be negative (got -1)");
  }

  @Test
  void aSurrogatePairSplitAcrossAppendsIsHeldUntilItsSecondHalfArrives() {
    WindowSpec three = new WindowSpec(3, 1);
    log.open(KEY, three);
    log.append(KEY, "ab\uD83D", 0);
    assertThat(store.parts(KEY)).isEmpty();
    log.append(KEY, "\uDE00c", 3);
    assertThat(store.parts(KEY)).containsExactly(DocumentPart.of(0, 0, "ab\uD83D\uDE00"));
  }

  @Test
  void aRetriedFlushRewritesTheSamePartWithTheSameContent() {
    // The first attempt loses its conditional write, as if another writer moved the log; the
    // retry must write part 0 again, identically.
    RacingStore racing = new RacingStore();
    DocumentLog racingLog = new DocumentLog(racing, index);
    racingLog.open(KEY, TEN_BY_TWO);
    racing.losses = 1;

    racingLog.append(KEY, "0123456789ab", 0);

    assertThat(racing.partWrites)
        .containsExactly(DocumentPart.of(0, 0, "0123456789"), DocumentPart.of(0, 0, "0123456789"));
    assertThat(racing.parts(KEY)).containsExactly(DocumentPart.of(0, 0, "0123456789"));
    assertThat(racing.load(KEY).orElseThrow().length()).isEqualTo(12);
  }

  @Test
  void aLogThatKeepsMovingIsRefusedAsContendedAndLeftAsItWas() {
    RacingStore racing = new RacingStore();
    DocumentLog racingLog = new DocumentLog(racing, index);
    racingLog.open(KEY, TEN_BY_TWO);
    racing.losses = Integer.MAX_VALUE;

    assertThatThrownBy(() -> racingLog.append(KEY, "abc", 0))
        .isInstanceOfSatisfying(
            DocumentLogRefusal.class, r -> assertThat(r.reason()).isEqualTo(Reason.CONTENDED))
        .hasMessage(
            "key: log logs:logs/work-units/wu-1 kept changing under 8 attempts by other"
                + " writers; retry the call as it is");
    assertThat(racing.load(KEY).orElseThrow().length()).isZero();
  }

  @Test
  void sealRefusesWhenTheStoreLostAPart() {
    log.open(KEY, TEN_BY_TWO);
    log.append(KEY, "0123456789abcdefghij", 0);
    InMemoryDocumentLogStore lossy = new InMemoryDocumentLogStore();
    lossy.createIfAbsent(store.load(KEY).orElseThrow());
    lossy.putPart(KEY, store.parts(KEY).get(1));

    assertThatThrownBy(() -> new DocumentLog(lossy, index).seal(KEY))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stored part 1 at offset 8 leaves a hole after offset 0");
    assertThat(lossy.load(KEY).orElseThrow().sealed()).isFalse();
  }

  /** A store whose conditional writes fail {@code losses} times, as if another writer won. */
  private static final class RacingStore implements DocumentLogStore {
    private final InMemoryDocumentLogStore inner = new InMemoryDocumentLogStore();
    private final List<DocumentPart> partWrites = new ArrayList<>();
    int losses;

    @Override
    public Optional<DocumentLogState> load(LogKey key) {
      return inner.load(key);
    }

    @Override
    public DocumentLogState createIfAbsent(DocumentLogState initial) {
      return inner.createIfAbsent(initial);
    }

    @Override
    public boolean replace(DocumentLogState next, long expectedVersion) {
      if (losses > 0) {
        losses--;
        return false;
      }
      return inner.replace(next, expectedVersion);
    }

    @Override
    public void putPart(LogKey key, DocumentPart part) {
      partWrites.add(part);
      inner.putPart(key, part);
    }

    @Override
    public List<DocumentPart> parts(LogKey key) {
      return inner.parts(key);
    }
  }

  @Test
  void aLogNeverOpenedReadsAsAbsentAndAnOpenOneReadsWhileItIsWritten() {
    assertThat(log.read(KEY)).isEmpty();
    log.open(KEY, TEN_BY_TWO);
    assertThat(log.read(KEY)).contains("");
    log.append(KEY, "0123456789abcdefghij", 0);
    assertThat(log.read(KEY)).contains("0123456789abcdefghij");
  }
}
