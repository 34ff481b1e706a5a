package dev.protomolt.statemachines;

import java.util.List;

/** A review-sized diff of two texts: the changed middle between their common prefix and suffix. */
final class GoldenDiff {

  private static final int MAX_LINES = 40;

  private GoldenDiff() {}

  static String describe(String expected, String actual) {
    List<String> a = expected.lines().toList();
    List<String> b = actual.lines().toList();
    if (a.size() == b.size() && !a.equals(b)) {
      return lineByLine(a, b);
    }
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < a.size() - prefix
        && suffix < b.size() - prefix
        && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
      suffix++;
    }
    StringBuilder out = new StringBuilder("@@ first difference at line " + (prefix + 1) + " @@\n");
    append(out, "- ", a.subList(prefix, a.size() - suffix));
    append(out, "+ ", b.subList(prefix, b.size() - suffix));
    if (a.equals(b)) {
      out.append("(the texts differ only in their final newline)\n");
    }
    return out.toString();
  }

  /** Same line count (a value changed in place): each changed line with its number. */
  private static String lineByLine(List<String> a, List<String> b) {
    StringBuilder out = new StringBuilder();
    int shown = 0;
    for (int i = 0; i < a.size() && shown < MAX_LINES; i++) {
      if (!a.get(i).equals(b.get(i))) {
        out.append("@@ line ")
            .append(i + 1)
            .append(" @@\n- ")
            .append(a.get(i))
            .append("\n+ ")
            .append(b.get(i))
            .append('\n');
        shown++;
      }
    }
    return out.toString();
  }

  private static void append(StringBuilder out, String mark, List<String> lines) {
    for (int i = 0; i < Math.min(lines.size(), MAX_LINES); i++) {
      out.append(mark).append(lines.get(i)).append('\n');
    }
    if (lines.size() > MAX_LINES) {
      out.append(mark).append("... ").append(lines.size() - MAX_LINES).append(" more lines\n");
    }
  }
}
