package dev.protomolt.engine.deadletters;

import java.util.List;
import java.util.Optional;

/** Reads dead letters off DLQ topics in a stable order (topic, partition, offset), a page at once. */
public interface DeadLetterTopics {

  /** Where the next page starts: the first record at or after this position is read next. */
  record Position(String topic, int partition, long offset) {}

  /**
   * @param next where the page after this one starts, empty when the topics have no more
   */
  record Page(List<DeadLetter> letters, Optional<Position> next) {}

  /**
   * Up to {@code limit} records of {@code topics} (absent topics are skipped), starting at {@code
   * from} or at the beginning when it is null. Records that do not parse as a {@code DlqMessage}
   * are skipped: a DLQ topic holds nothing else, and one bad record must not hide the others.
   */
  Page read(List<String> topics, Position from, int limit);
}
