package dev.protomolt.module.samples.chunker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.module.samples.chunker.TextWindows.Window;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextWindowsTest {

  @Test
  void shortTextIsOneWindowWithoutSurroundingWhitespace() {
    assertThat(TextWindows.cut("  hello world \n", 100, 10))
        .containsExactly(new Window(2, 13, "hello world"));
    assertThat(TextWindows.cut("   ", 100, 10)).isEmpty();
  }

  @Test
  void windowsBreakBetweenWordsAndOverlap() {
    String text = "one two three four five six seven eight nine ten";
    List<Window> windows = TextWindows.cut(text, 20, 6);
    assertThat(windows)
        .extracting(Window::text)
        .containsExactly("one two three four", "four five six seven", "seven eight nine ten");
  }

  @Test
  void everyWindowRespectsTheSizeMapsBackToTheSourceAndTogetherTheyCoverEveryWord() {
    Random random = new Random(42);
    // Whole code points, so the generated text holds surrogate pairs but never a lone half.
    String[] alphabet =
        "a b c d e f g h i j k l m n o p q r s t u v w x y z . \uD83D\uDE00 \u00E9".split(" ");
    for (int round = 0; round < 300; round++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(400);
      for (int i = 0; i < length; i++) {
        int pick = random.nextInt(alphabet.length + 4);
        text.append(pick < alphabet.length ? alphabet[pick] : pick % 2 == 0 ? " " : "\n");
      }
      String source = text.toString();
      int size = 8 + random.nextInt(60);
      int overlap = random.nextInt(size);
      List<Window> windows = TextWindows.cut(source, size, overlap);
      boolean[] covered = new boolean[source.length()];
      int previousStart = -1;
      for (Window window : windows) {
        assertThat(window.end() - window.start()).isBetween(1, size);
        assertThat(window.text()).isEqualTo(source.substring(window.start(), window.end()));
        assertThat(window.start()).isGreaterThan(previousStart);
        assertThat(Character.isLowSurrogate(source.charAt(window.start()))).isFalse();
        assertThat(Character.isHighSurrogate(source.charAt(window.end() - 1))).isFalse();
        previousStart = window.start();
        for (int i = window.start(); i < window.end(); i++) {
          covered[i] = true;
        }
      }
      for (int i = 0; i < source.length(); i++) {
        if (!Character.isWhitespace(source.charAt(i))) {
          assertThat(covered[i])
              .as("char %d of %s (size %d, overlap %d)", i, source, size, overlap)
              .isTrue();
        }
      }
    }
  }

  @Test
  void overlapMustBeSmallerThanTheWindow() {
    assertThatThrownBy(() -> TextWindows.cut("text", 10, 10))
        .hasMessage("overlap must be >= 0 and less than size 10, got 10");
  }
}
