package dev.protomolt.module.samples.parser;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A guess, not a detector: counts a few dozen very common function words per language over the
 * first 2,000 words and names the clear winner. Blank when the evidence is thin or split, because a
 * wrong language would misroute a document while a blank one routes it nowhere special.
 */
final class LanguageGuess {

  private static final Pattern WORD = Pattern.compile("[\\p{L}']+");
  private static final int MAX_WORDS = 2_000;
  private static final int MIN_HITS = 3;

  private static final Map<String, Set<String>> FUNCTION_WORDS =
      Map.of(
          "en",
              Set.of(
                  "the", "and", "of", "to", "is", "in", "that", "it", "for", "with", "was", "are",
                  "this", "be", "on", "not", "by", "as", "from", "which"),
          "de",
              Set.of(
                  "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "mit", "den", "sich",
                  "auf", "für", "von", "dem", "zu", "auch", "wird", "des", "im"),
          "fr",
              Set.of(
                  "le", "la", "les", "et", "est", "des", "une", "un", "pour", "dans", "qui", "que",
                  "pas", "sur", "avec", "du", "au", "ce", "sont", "aux"),
          "es",
              Set.of(
                  "el", "la", "los", "las", "y", "es", "una", "por", "para", "con", "que", "del",
                  "se", "su", "al", "como", "más", "pero", "sus", "está"),
          "it",
              Set.of(
                  "il", "di", "che", "è", "per", "una", "sono", "della", "non", "con", "gli", "del",
                  "nel", "alla", "anche", "come", "questo", "più", "delle", "lo"),
          "nl",
              Set.of(
                  "de", "het", "een", "van", "en", "is", "niet", "dat", "op", "te", "zijn", "voor",
                  "met", "die", "ook", "aan", "er", "maar", "wordt", "bij"));

  private LanguageGuess() {}

  static String guess(String text) {
    Map<String, Integer> hits = new HashMap<>();
    var words = WORD.matcher(text.toLowerCase(Locale.ROOT));
    int seen = 0;
    while (words.find() && seen++ < MAX_WORDS) {
      String word = words.group();
      FUNCTION_WORDS.forEach(
          (language, set) -> {
            if (set.contains(word)) {
              hits.merge(language, 1, Integer::sum);
            }
          });
    }
    String best = "";
    int bestHits = 0;
    int secondHits = 0;
    for (var entry : hits.entrySet()) {
      if (entry.getValue() > bestHits) {
        secondHits = bestHits;
        bestHits = entry.getValue();
        best = entry.getKey();
      } else if (entry.getValue() > secondHits) {
        secondHits = entry.getValue();
      }
    }
    // A clear winner: enough evidence and half again as much as the runner-up.
    return bestHits >= MIN_HITS && bestHits * 2 >= secondHits * 3 ? best : "";
  }
}
