package dev.protomolt.core.doclog;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The reference cut of a finished text into windows; a streamed {@link DocumentLog} emits exactly
 * these parts however its text arrived.
 *
 * <p>Windows count code points, so a window never splits a surrogate pair (an unpaired surrogate
 * counts as one code point, as in {@link String#codePoints()}). With {@code n} code points, window
 * {@code N} covers code points {@code [N*step, min(N*step + size, n))}. Window 0 exists whenever
 * the text is not empty; a later window exists only if it reaches past the end of the window before
 * it ({@code N*step + overlap < n}), so the trailing partial window is the code points after the
 * last full window's start, and it is never a mere copy of text already covered. Empty text has no
 * windows.
 */
public final class TextWindows {

  private TextWindows() {}

  public static List<DocumentPart> cut(String text) {
    return cut(text, WindowSpec.DEFAULT);
  }

  public static List<DocumentPart> cut(String text, WindowSpec windows) {
    Objects.requireNonNull(text, "text: must not be null");
    Objects.requireNonNull(windows, "windows: must not be null");
    int[] charAt = codePointStarts(text);
    int n = charAt.length - 1;
    List<DocumentPart> parts = new ArrayList<>();
    for (int index = 0; ; index++) {
      long first = (long) index * windows.step();
      long reachNeeded = index == 0 ? 0 : first + windows.overlap();
      if (n <= reachNeeded) {
        return parts;
      }
      int from = charAt[(int) first];
      int to = charAt[(int) Math.min(first + windows.size(), n)];
      parts.add(DocumentPart.of(index, from, text.substring(from, to)));
    }
  }

  /** The char index at which each code point starts, plus the text's length as a last entry. */
  private static int[] codePointStarts(String text) {
    int[] starts = new int[text.codePointCount(0, text.length()) + 1];
    int cp = 0;
    for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
      starts[cp++] = i;
    }
    starts[cp] = text.length();
    return starts;
  }
}
