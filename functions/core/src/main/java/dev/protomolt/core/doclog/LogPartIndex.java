package dev.protomolt.core.doclog;

import java.util.List;

/**
 * The search seam of document logs: a part is upserted the moment its window completes, so a log
 * is searchable while it is still being written. A real index adapter is held to
 * {@code LogPartIndexContract}.
 */
public interface LogPartIndex {

  /** Indexes {@code part} under {@code (key, part.index())}, replacing what was indexed there. */
  void upsert(LogKey key, DocumentPart part);

  /**
   * Parts whose text contains every word of {@code terms} (case-insensitive), at most
   * {@code limit} of them.
   */
  List<Hit> query(String terms, int limit);

  /** One matching part. */
  record Hit(LogKey key, int index, long start, String text) {}
}
