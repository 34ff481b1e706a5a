package dev.protomolt.core.doclog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A {@link DocumentLogStore} in a map, for tests and for local runs that need no durability. */
public final class InMemoryDocumentLogStore implements DocumentLogStore {

  private final Map<LogKey, DocumentLogState> states = new HashMap<>();
  private final Map<LogKey, TreeMap<Integer, DocumentPart>> parts = new HashMap<>();

  @Override
  public synchronized Optional<DocumentLogState> load(LogKey key) {
    return Optional.ofNullable(states.get(key));
  }

  @Override
  public synchronized DocumentLogState createIfAbsent(DocumentLogState initial) {
    return states.computeIfAbsent(initial.key(), k -> initial);
  }

  @Override
  public synchronized boolean replace(DocumentLogState next, long expectedVersion) {
    DocumentLogState current = states.get(next.key());
    if (current == null || current.version() != expectedVersion) {
      return false;
    }
    states.put(next.key(), next);
    return true;
  }

  @Override
  public synchronized void putPart(LogKey key, DocumentPart part) {
    parts.computeIfAbsent(key, k -> new TreeMap<>()).put(part.index(), part);
  }

  @Override
  public synchronized List<DocumentPart> parts(LogKey key) {
    TreeMap<Integer, DocumentPart> held = parts.get(key);
    return held == null ? List.of() : List.copyOf(held.values());
  }
}
