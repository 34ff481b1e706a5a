package dev.protomolt.core.doclog;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a log search matches on: a word is a run of letters and digits in any script, compared
 * lower-cased in the root locale. Every {@link LogPartIndex} uses this one definition, so the
 * in-memory and the durable index answer a query alike.
 */
public final class LogWords {

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  private LogWords() {}

  /** The distinct words of {@code text}, lower-cased. */
  public static Set<String> of(String text) {
    return WORD.matcher(text)
        .results()
        .map(r -> r.group().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * The words of a query, refusing one with none, and checking {@code limit}; the messages name
   * the argument and the rule.
   */
  public static Set<String> ofQuery(String terms, int limit) {
    if (terms == null || of(terms).isEmpty()) {
      throw new IllegalArgumentException(
          "terms: must contain at least one word (got \"" + terms + "\")");
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("limit: must be greater than 0 (got " + limit + ")");
    }
    return of(terms);
  }
}
