package dev.protomolt.module.samples.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Markdown to readable text: the title is the first heading, markup characters go, the words and
 * code stay. Deliberately a line-level reading, not a full CommonMark parser: chunkers and
 * embedders need the words, not the rendering.
 */
final class MarkdownText {

  private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)]\\([^)]*\\)");
  private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
  private static final Pattern EMPHASIS =
      Pattern.compile("(\\*\\*|__|\\*|_|~~|`)(\\S.*?\\S|\\S)\\1");
  private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:[-*+]|\\d+[.)])\\s+");
  private static final Pattern QUOTE = Pattern.compile("^\\s*>\\s?");
  private static final Pattern RULE = Pattern.compile("^\\s*([-*_])(\\s*\\1){2,}\\s*$");

  private MarkdownText() {}

  static ParsedText read(String markdown) {
    String title = "";
    List<String> lines = new ArrayList<>();
    boolean inFence = false;
    for (String line : markdown.split("\\R", -1)) {
      if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
        inFence = !inFence;
        continue;
      }
      if (inFence) {
        lines.add(line);
        continue;
      }
      var heading = HEADING.matcher(line);
      if (heading.matches()) {
        String text = inline(heading.group(1));
        if (title.isEmpty()) {
          title = text;
        }
        lines.add(text);
        continue;
      }
      if (RULE.matcher(line).matches()) {
        lines.add("");
        continue;
      }
      String text = QUOTE.matcher(line).replaceFirst("");
      text = LIST_MARKER.matcher(text).replaceFirst("");
      lines.add(inline(text));
    }
    return new ParsedText(title, PlainText.paragraphs(String.join("\n", lines)), "", 0);
  }

  private static String inline(String text) {
    String out = IMAGE.matcher(text).replaceAll("$1");
    out = LINK.matcher(out).replaceAll("$1");
    // Twice: emphasis nests (**_word_**).
    out = EMPHASIS.matcher(out).replaceAll("$2");
    return EMPHASIS.matcher(out).replaceAll("$2");
  }
}
