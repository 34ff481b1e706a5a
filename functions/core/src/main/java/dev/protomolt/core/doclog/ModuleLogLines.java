package dev.protomolt.core.doclog;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A work unit's log read back as lines. The module SDK writes each line as {@code <instant>
 * <LEVEL> <text>} (decision 1754); the gateway's own lines (an attempt's header or footer) start
 * with {@code #}; a module on an older SDK wrote bare text. Each line keeps what it says: its
 * instant and level when it has them, blank when it has not, never a guessed one.
 */
public final class ModuleLogLines {

  /** Who wrote a line: the module, or the gateway keeping the log. */
  public enum Source {
    MODULE,
    PLATFORM
  }

  /**
   * Line {@code number} (0-based) of the log: {@code at} and {@code level} blank where the line
   * carries none.
   */
  public record Line(int number, String at, String level, String text, Source source) {}

  private static final Pattern STAMPED =
      Pattern.compile(
          "^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?Z) (DEBUG|INFO|WARN|ERROR)"
              + " (.*)$");

  private ModuleLogLines() {}

  /** The lines of {@code text}; a trailing newline ends the last line and starts none. */
  public static List<Line> of(String text) {
    List<Line> lines = new ArrayList<>();
    if (text.isEmpty()) {
      return lines;
    }
    String[] raw = text.split("\n", -1);
    int count = text.endsWith("\n") ? raw.length - 1 : raw.length;
    for (int i = 0; i < count; i++) {
      lines.add(line(i, raw[i]));
    }
    return lines;
  }

  static Line line(int number, String raw) {
    if (raw.startsWith("#")) {
      return new Line(number, "", "", raw, Source.PLATFORM);
    }
    Matcher m = STAMPED.matcher(raw);
    if (m.matches()) {
      return new Line(number, m.group(1), m.group(2), m.group(3), Source.MODULE);
    }
    return new Line(number, "", "", raw, Source.MODULE);
  }
}
