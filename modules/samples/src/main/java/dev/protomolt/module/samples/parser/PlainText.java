package dev.protomolt.module.samples.parser;

import java.util.ArrayList;
import java.util.List;

/** Plain text: the title is the first non-blank line; the body keeps its paragraphs. */
final class PlainText {

  private static final int MAX_TITLE_CHARS = 200;

  private PlainText() {}

  static ParsedText read(String text) {
    String body = paragraphs(text);
    String title = "";
    for (String line : body.split("\n")) {
      if (!line.isBlank()) {
        title = shorten(line.strip());
        break;
      }
    }
    return new ParsedText(title, body, "", 0);
  }

  /**
   * Normalises line endings, trims each line's trailing space and collapses runs of blank lines
   * to one, so paragraph breaks survive as a single blank line.
   */
  static String paragraphs(String text) {
    List<String> out = new ArrayList<>();
    boolean lastBlank = true;
    for (String line : text.split("\\R", -1)) {
      String trimmed = line.stripTrailing();
      boolean blank = trimmed.isBlank();
      if (blank && lastBlank) {
        continue;
      }
      out.add(blank ? "" : trimmed);
      lastBlank = blank;
    }
    while (!out.isEmpty() && out.getLast().isEmpty()) {
      out.removeLast();
    }
    return String.join("\n", out);
  }

  static String shorten(String title) {
    if (title.length() <= MAX_TITLE_CHARS) {
      return title;
    }
    int cut = title.lastIndexOf(' ', MAX_TITLE_CHARS);
    return title.substring(0, cut > MAX_TITLE_CHARS / 2 ? cut : MAX_TITLE_CHARS).strip() + "…";
  }
}
