package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups {@code semantic_results} into chunk sets. Only <em>consecutive</em> entries sharing a result
 * id form a set: grouping all entries of an id together would reorder an interleaved list, and the
 * stored document must come back in its exact original order. A result id seen again after another
 * id starts a new run with the next {@code #n}. A blank result id carries no identity, so every such
 * entry is a set of its own.
 */
public final class ChunkSets {
  private ChunkSets() {}

  /** The chunk sets of the given results, in document order; empty when there are none. */
  public static List<ChunkSet> of(List<SemanticProcessingResult> results) {
    List<ChunkSet> sets = new ArrayList<>();
    Map<String, Integer> runsSeen = new HashMap<>();
    int start = 0;
    while (start < results.size()) {
      String resultId = results.get(start).getResultId();
      int end = start + 1;
      if (!resultId.isEmpty()) {
        while (end < results.size() && results.get(end).getResultId().equals(resultId)) {
          end++;
        }
      }
      int occurrence = runsSeen.merge(resultId, 1, Integer::sum);
      sets.add(
          new ChunkSet(
              new ChunkSetKey(resultId, occurrence), sets.size(), results.subList(start, end)));
      start = end;
    }
    return sets;
  }
}
