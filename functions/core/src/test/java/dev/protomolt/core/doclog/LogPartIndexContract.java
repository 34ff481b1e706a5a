package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link LogPartIndex} owes document logs. An adapter's test extends this
 * class and returns a fresh, empty index from {@link #newIndex()}.
 */
public abstract class LogPartIndexContract {

  private static final LogKey BUILD = LogKey.workUnitLog("logs", "wu-build");
  private static final LogKey DEPLOY = LogKey.executionTranscript("logs", "exec-deploy");

  protected LogPartIndex index;

  protected abstract LogPartIndex newIndex();

  @BeforeEach
  protected void freshIndex() {
    index = newIndex();
  }

  @Test
  void findsPartsHoldingEveryTermWhateverTheCase() {
    index.upsert(BUILD, DocumentPart.of(0, 0, "Compiling core; disk FULL at step 3"));
    index.upsert(BUILD, DocumentPart.of(1, 850, "retrying after disk cleanup"));
    index.upsert(DEPLOY, DocumentPart.of(0, 0, "deploy ok, disk full warning"));

    assertThat(index.query("disk full", 10))
        .extracting(LogPartIndex.Hit::key, LogPartIndex.Hit::index)
        .containsExactlyInAnyOrder(tuple(BUILD, 0), tuple(DEPLOY, 0));
    assertThat(index.query("cleanup", 10))
        .containsExactly(new LogPartIndex.Hit(BUILD, 1, 850, "retrying after disk cleanup"));
    assertThat(index.query("nothing-like-this", 10)).isEmpty();
  }

  @Test
  void anUpsertReplacesThePartAtTheSameIndex() {
    index.upsert(BUILD, DocumentPart.of(0, 0, "first text"));
    index.upsert(BUILD, DocumentPart.of(0, 0, "second text"));

    assertThat(index.query("first", 10)).isEmpty();
    assertThat(index.query("text", 10)).hasSize(1);
  }

  @Test
  void returnsAtMostLimitHits() {
    for (int i = 0; i < 5; i++) {
      index.upsert(BUILD, DocumentPart.of(i, i * 850L, "error number " + i));
    }
    assertThat(index.query("error", 3)).hasSize(3);
  }

  @Test
  void termsAndLimitAreValidated() {
    assertThatThrownBy(() -> index.query(" ,; ", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("terms: must contain at least one word (got \" ,; \")");
    assertThatThrownBy(() -> index.query("error", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit: must be greater than 0 (got 0)");
  }

  @Test
  void aHitCarriesThePartsTextExactlyEvenWithNulsAndHitsComeInKeyOrder() {
    String odd = "worker\u0000 crashed \uD83D";
    index.upsert(DEPLOY, DocumentPart.of(3, 2550, odd));
    index.upsert(BUILD, DocumentPart.of(2, 1700, "worker crashed again"));
    index.upsert(BUILD, DocumentPart.of(1, 850, "worker crashed"));

    assertThat(index.query("CRASHED worker", 10))
        .containsExactly(
            new LogPartIndex.Hit(DEPLOY, 3, 2550, odd),
            new LogPartIndex.Hit(BUILD, 1, 850, "worker crashed"),
            new LogPartIndex.Hit(BUILD, 2, 1700, "worker crashed again"));
  }
}
