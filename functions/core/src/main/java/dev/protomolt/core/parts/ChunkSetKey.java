package dev.protomolt.core.parts;

/**
 * The identity of one chunk set within a document: the {@code result_id} its run shares and which
 * run of that id it is (1 for the first, 2 for the second run of the same id, ...).
 *
 * <p>The sub key spelling is the escaped result id, then {@code #n} when the run is not the first.
 * Escaping turns {@code %} into {@code %25} and {@code #} into {@code %23}, so a literal result id
 * such as {@code "a#2"} can never collide with the second run of {@code "a"}. A blank result id has
 * no identity of its own and is spelled {@code #blank}, which no escaped id can produce.
 *
 * @param resultId   the shared result id, possibly blank
 * @param occurrence 1-based count of runs with this result id up to and including this one
 */
public record ChunkSetKey(String resultId, int occurrence) {
  static final String BLANK = "#blank";

  public ChunkSetKey {
    if (resultId == null) {
      throw new IllegalArgumentException(
          "result_id must not be null (use \"\" for a blank result id)");
    }
    if (occurrence < 1) {
      throw new IllegalArgumentException("occurrence must be at least 1, got " + occurrence);
    }
  }

  /** The sub key recorded in the manifest and used in {@code chunk_sets_written}. */
  public String subKey() {
    String base = resultId.isEmpty() ? BLANK : escape(resultId);
    return occurrence == 1 ? base : base + "#" + occurrence;
  }

  /** Reads a sub key back; fails with the rule broken when the spelling is not one we produce. */
  public static ChunkSetKey parse(String subKey) {
    if (subKey == null || subKey.isEmpty()) {
      throw new IllegalArgumentException("sub_key must not be blank for a chunk set");
    }
    String base = subKey;
    int occurrence = 1;
    int hash = subKey.lastIndexOf('#');
    if (hash > 0) {
      String suffix = subKey.substring(hash + 1);
      try {
        occurrence = Integer.parseInt(suffix);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "sub_key \"" + subKey + "\" has a run suffix that is not a number");
      }
      if (occurrence < 2 || !suffix.equals(Integer.toString(occurrence))) {
        throw new IllegalArgumentException(
            "sub_key \""
                + subKey
                + "\" must spell a repeated run as #n with n >= 2 and no leading zeros");
      }
      base = subKey.substring(0, hash);
    }
    if (base.equals(BLANK)) {
      return new ChunkSetKey("", occurrence);
    }
    if (base.indexOf('#') >= 0) {
      throw new IllegalArgumentException("sub_key \"" + subKey + "\" contains an unescaped '#'");
    }
    return new ChunkSetKey(unescape(base, subKey), occurrence);
  }

  private static String escape(String resultId) {
    if (resultId.indexOf('%') < 0 && resultId.indexOf('#') < 0) {
      return resultId;
    }
    StringBuilder out = new StringBuilder(resultId.length() + 8);
    for (int i = 0; i < resultId.length(); i++) {
      char c = resultId.charAt(i);
      switch (c) {
        case '%' -> out.append("%25");
        case '#' -> out.append("%23");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  private static String unescape(String escaped, String subKey) {
    if (escaped.indexOf('%') < 0) {
      return escaped;
    }
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '%') {
        out.append(c);
      } else if (escaped.startsWith("%25", i)) {
        out.append('%');
        i += 2;
      } else if (escaped.startsWith("%23", i)) {
        out.append('#');
        i += 2;
      } else {
        throw new IllegalArgumentException(
            "sub_key \"" + subKey + "\" has a '%' that is not %25 or %23");
      }
    }
    return out.toString();
  }
}
