package dev.protomolt.module.samples.chunker;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts text into overlapping windows of at most {@code size} characters. A window ends at the last
 * whitespace in its second half when there is one, so words are not split; the next window starts
 * {@code overlap} characters before the previous end, moved forward to a word start. Offsets are
 * UTF-16 indexes into the source text and never split a surrogate pair.
 */
public final class TextWindows {

  /** One window: {@code text} is {@code source.substring(start, end)}. */
  public record Window(int start, int end, String text) {}

  private TextWindows() {}

  public static List<Window> cut(String text, int size, int overlap) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be >= 1, got " + size);
    }
    if (overlap < 0 || overlap >= size) {
      throw new IllegalArgumentException(
          "overlap must be >= 0 and less than size " + size + ", got " + overlap);
    }
    List<Window> windows = new ArrayList<>();
    int length = text.length();
    int start = skipWhitespace(text, 0);
    while (start < length) {
      int end = Math.min(start + size, length);
      if (end < length) {
        int breakAt = lastWhitespace(text, start + size / 2, end);
        if (breakAt > start) {
          end = breakAt;
        }
        if (Character.isLowSurrogate(text.charAt(end)) && end - 1 > start) {
          end--;
        }
      }
      int trimmedEnd = end;
      while (trimmedEnd > start && Character.isWhitespace(text.charAt(trimmedEnd - 1))) {
        trimmedEnd--;
      }
      windows.add(new Window(start, trimmedEnd, text.substring(start, trimmedEnd)));
      if (end >= length) {
        break;
      }
      int next = Math.max(end - overlap, start + 1);
      // Inside a word: move to the next word start, but never past this window's end.
      while (next < end && !Character.isWhitespace(text.charAt(next - 1))) {
        next++;
      }
      next = skipWhitespace(text, next);
      if (next < length && Character.isLowSurrogate(text.charAt(next))) {
        next++;
      }
      start = next;
    }
    return windows;
  }

  private static int skipWhitespace(String text, int from) {
    int i = from;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  /** Index of the last whitespace character in [from, to], or -1. */
  private static int lastWhitespace(String text, int from, int to) {
    for (int i = Math.min(to, text.length() - 1); i >= from; i--) {
      if (Character.isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
