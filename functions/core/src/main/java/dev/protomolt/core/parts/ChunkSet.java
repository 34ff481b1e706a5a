package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import java.util.List;

/**
 * One chunk set: a consecutive run of {@code semantic_results} sharing a result id, in document
 * order. It is stored as one CHUNKS object.
 *
 * @param key     the run's identity
 * @param ordinal 0-based position among the document's chunk sets
 * @param results the run's results, in document order
 */
public record ChunkSet(ChunkSetKey key, int ordinal, List<SemanticProcessingResult> results) {
  public ChunkSet {
    results = List.copyOf(results);
    if (results.isEmpty()) {
      throw new IllegalArgumentException("a chunk set holds at least one semantic result");
    }
  }

  public String subKey() {
    return key.subKey();
  }
}
