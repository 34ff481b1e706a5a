package dev.protomolt.core.doclog;

import java.util.List;
import java.util.Optional;

/**
 * Persistence of document logs: one state record per log and its parts. Adapters (Postgres for the
 * state, S3 or Postgres for parts) are held to {@code DocumentLogStoreContract}.
 */
public interface DocumentLogStore {

  Optional<DocumentLogState> load(LogKey key);

  /**
   * Stores {@code initial} unless a log already exists under its key, atomically, and returns the
   * state stored afterwards: {@code initial} or the one that was there first.
   */
  DocumentLogState createIfAbsent(DocumentLogState initial);

  /**
   * Replaces the log's state with {@code next} only if the stored state's version is still
   * {@code expectedVersion}; returns whether it did. This is how two writers that read the same
   * state cannot both move it.
   */
  boolean replace(DocumentLogState next, long expectedVersion);

  /** Writes part {@code part.index()} of the log, replacing any part already at that index. */
  void putPart(LogKey key, DocumentPart part);

  /** The log's parts in index order; empty when there are none. */
  List<DocumentPart> parts(LogKey key);
}
