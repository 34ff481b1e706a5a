package dev.protomolt.core.doclog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A {@link LogPartIndex} in memory that matches whole words ({@link LogWords}). Hits come in
 * (collection, path, index) order. It serves tests and local runs that need no durability.
 */
public final class InMemoryLogPartIndex implements LogPartIndex {

  private static final Comparator<PartId> ORDER =
      Comparator.comparing((PartId id) -> id.key().collection())
          .thenComparing(id -> id.key().path())
          .thenComparingInt(PartId::index);

  private record PartId(LogKey key, int index) {}

  private record Entry(DocumentPart part, Set<String> words) {}

  private final Map<PartId, Entry> entries = new ConcurrentSkipListMap<>(ORDER);

  @Override
  public void upsert(LogKey key, DocumentPart part) {
    entries.put(new PartId(key, part.index()), new Entry(part, LogWords.of(part.text())));
  }

  @Override
  public List<Hit> query(String terms, int limit) {
    Set<String> wanted = LogWords.ofQuery(terms, limit);
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
}
