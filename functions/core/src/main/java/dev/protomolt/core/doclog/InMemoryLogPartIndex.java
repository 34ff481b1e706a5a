package dev.protomolt.core.doclog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A {@link LogPartIndex} that matches whole words: a word is a run of letters and digits, compared
 * lower-cased. Hits come in (collection, path, index) order. It stands in until a real index is
 * wired and serves tests.
 */
public final class InMemoryLogPartIndex implements LogPartIndex {

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Comparator<PartId> ORDER =
      Comparator.comparing((PartId id) -> id.key().collection())
          .thenComparing(id -> id.key().path())
          .thenComparingInt(PartId::index);

  private record PartId(LogKey key, int index) {}

  private record Entry(DocumentPart part, Set<String> words) {}

  private final Map<PartId, Entry> entries = new ConcurrentSkipListMap<>(ORDER);

  @Override
  public void upsert(LogKey key, DocumentPart part) {
    entries.put(new PartId(key, part.index()), new Entry(part, words(part.text())));
  }

  @Override
  public List<Hit> query(String terms, int limit) {
    if (terms == null || words(terms).isEmpty()) {
      throw new IllegalArgumentException(
          "terms: must contain at least one word (got \"" + terms + "\")");
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("limit: must be greater than 0 (got " + limit + ")");
    }
    Set<String> wanted = words(terms);
    List<Hit> hits = new ArrayList<>();
    for (Map.Entry<PartId, Entry> e : entries.entrySet()) {
      if (hits.size() == limit) {
        break;
      }
      if (e.getValue().words().containsAll(wanted)) {
        DocumentPart part = e.getValue().part();
        hits.add(new Hit(e.getKey().key(), part.index(), part.start(), part.text()));
      }
    }
    return hits;
  }

  private static Set<String> words(String text) {
    Matcher m = WORD.matcher(text);
    return m.results()
        .map(r -> r.group().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
  }
}
