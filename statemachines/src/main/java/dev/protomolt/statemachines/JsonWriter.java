package dev.protomolt.statemachines;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the compiler's JSON values (insertion-ordered maps, lists, strings, integers, doubles,
 * booleans, null) with two-space indentation and a trailing newline. The output depends only on
 * the value: no locale, no platform line separator, no hash order, so the same graph always gives
 * the same bytes.
 */
final class JsonWriter {

  private final StringBuilder out = new StringBuilder(1 << 16);
  private final boolean pretty;

  private JsonWriter(boolean pretty) {
    this.pretty = pretty;
  }

  /** The reviewable form: two-space indentation, one value per line, a trailing newline. */
  static String write(Object value) {
    JsonWriter writer = new JsonWriter(true);
    writer.value(value, 0);
    writer.out.append('\n');
    return writer.out.toString();
  }

  /** The deployable form: no whitespace at all, since a definition must fit a 1 MB request. */
  static String writeCompact(Object value) {
    JsonWriter writer = new JsonWriter(false);
    writer.value(value, 0);
    return writer.out.toString();
  }

  private void value(Object value, int depth) {
    switch (value) {
      case null -> out.append("null");
      case String s -> string(s);
      case Boolean b -> out.append(b ? "true" : "false");
      case Integer i -> out.append(i.intValue());
      case Long l -> out.append(l.longValue());
      case Double d -> number(d);
      case Map<?, ?> map -> object(map, depth);
      case List<?> list -> array(list, depth);
      default ->
          throw new IllegalArgumentException(
              "the ASL writer has no JSON form for " + value.getClass().getName());
    }
  }

  private void number(double d) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("JSON has no representation for " + d);
    }
    // Double.toString is specified exactly by the JLS, so it is stable across JVMs; integral
    // values keep their ".0" so a BackoffRate always reads as a rate.
    out.append(Double.toString(d));
  }

  private void object(Map<?, ?> map, int depth) {
    if (map.isEmpty()) {
      out.append("{}");
      return;
    }
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      newline(depth + 1);
      string((String) entry.getKey());
      out.append(pretty ? ": " : ":");
      value(entry.getValue(), depth + 1);
    }
    newline(depth);
    out.append('}');
  }

  private void array(List<?> list, int depth) {
    if (list.isEmpty()) {
      out.append("[]");
      return;
    }
    out.append('[');
    boolean first = true;
    for (Object item : list) {
      if (!first) {
        out.append(',');
      }
      first = false;
      newline(depth + 1);
      value(item, depth + 1);
    }
    newline(depth);
    out.append(']');
  }

  private void newline(int depth) {
    if (!pretty) {
      return;
    }
    out.append('\n');
    out.repeat("  ", depth);
  }

  private void string(String s) {
    out.append('"');
    // Most strings need no escaping and are copied in one bulk append (append(CharSequence, int,
    // int) copies char by char, so plain runs between escapes go through substring).
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      String escape = escape(s.charAt(i));
      if (escape != null) {
        out.append(s.substring(run, i)).append(escape);
        run = i + 1;
      }
    }
    out.append(run == 0 ? s : s.substring(run)).append('"');
  }

  private static String escape(char c) {
    return switch (c) {
      case '"' -> "\\\"";
      case '\\' -> "\\\\";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      case '\b' -> "\\b";
      case '\f' -> "\\f";
      // Control characters and the two JavaScript line separators are escaped so the file stays
      // one JSON document in every reader; everything else is written as UTF-8.
      default ->
          c < 0x20 || c == '\u2028' || c == '\u2029'
              ? String.format(Locale.ROOT, "\\u%04x", (int) c)
              : null;
    };
  }
}
