package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextWindowsTest {

  private static final WindowSpec FOUR_BY_ONE = new WindowSpec(4, 1);

  @Test
  void emptyTextHasNoWindows() {
    assertThat(TextWindows.cut("")).isEmpty();
  }

  @Test
  void textShorterThanOneWindowIsOnePart() {
    assertThat(TextWindows.cut("ab", FOUR_BY_ONE)).containsExactly(DocumentPart.of(0, 0, "ab"));
  }

  @Test
  void windowsAdvanceBySizeLessOverlap() {
    assertThat(texts(TextWindows.cut("abcdefghij", FOUR_BY_ONE)))
        .containsExactly("abcd", "defg", "ghij");
    assertThat(TextWindows.cut("abcdefghij", FOUR_BY_ONE))
        .extracting(DocumentPart::start)
        .containsExactly(0L, 3L, 6L);
  }

  @Test
  void trailingPartialWindowHoldsWhatIsLeftFromItsStart() {
    assertThat(texts(TextWindows.cut("abcdefgh", FOUR_BY_ONE)))
        .containsExactly("abcd", "defg", "gh");
  }

  @Test
  void noTrailingWindowWhenThePreviousWindowReachesTheEnd() {
    // "abcd" ends the text: a window at "d" would only repeat the overlap.
    assertThat(texts(TextWindows.cut("abcd", FOUR_BY_ONE))).containsExactly("abcd");
    assertThat(texts(TextWindows.cut("abcdefg", FOUR_BY_ONE))).containsExactly("abcd", "defg");
  }

  @Test
  void defaultWindowsCutThousandsWithOneHundredFiftyShared() {
    String text = "x".repeat(2000);
    List<DocumentPart> parts = TextWindows.cut(text);
    assertThat(parts).extracting(DocumentPart::start).containsExactly(0L, 850L, 1700L);
    assertThat(parts).extracting(p -> p.text().length()).containsExactly(1000, 1000, 300);
  }

  @Test
  void windowsCountCodePointsAndNeverSplitASurrogatePair() {
    String grin = "\uD83D\uDE00";
    String text = grin.repeat(10);
    List<DocumentPart> parts = TextWindows.cut(text, FOUR_BY_ONE);
    assertThat(texts(parts)).containsExactly(grin.repeat(4), grin.repeat(4), grin.repeat(4));
    // Starts are UTF-16 offsets into the original, two chars per emoji.
    assertThat(parts).extracting(DocumentPart::start).containsExactly(0L, 6L, 12L);
    assertThat(parts)
        .allSatisfy(
            p -> assertThat(p.text()).isEqualTo(text.substring((int) p.start(), (int) p.end())));
  }

  @Test
  void anUnpairedSurrogateCountsAsOneCodePoint() {
    assertThat(texts(TextWindows.cut("ab\uD800cdef", FOUR_BY_ONE)))
        .containsExactly("ab\uD800c", "cdef");
  }

  @Test
  void eachPartCarriesTheSha256OfItsUtf8Text() {
    assertThat(TextWindows.cut("abc").getFirst().sha256())
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // The figure sha256sum prints for the text saved as UTF-8.
    assertThat(TextDigest.sha256("\u00e9"))
        .isEqualTo("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
    assertThat(TextDigest.sha256("\uD83D\uDE00"))
        .isEqualTo("f0443a342c5ef54783a111b51ba56c938e474c32324d90c3a60c9c8e3a37e2d9");
  }

  private static List<String> texts(List<DocumentPart> parts) {
    return parts.stream().map(DocumentPart::text).toList();
  }
}
