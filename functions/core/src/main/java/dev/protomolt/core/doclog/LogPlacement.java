package dev.protomolt.core.doclog;

import java.util.List;

/**
 * Where a caller of the public door may file a log (decision 1671). Work-unit logs and execution
 * transcripts ({@link LogKey#WORK_UNIT_LOGS}, {@link LogKey#EXECUTION_TRANSCRIPTS}) are written by
 * the gateway and the engine alone, appending at the length they last read. A log opened or
 * appended to there by anyone else would interleave its text with a module's lines or an
 * execution's hops: the platform's writer would meet a conflict or a gap and drop its lines, and
 * the parts a reader finds would no longer be that work unit's. So the door refuses such a key,
 * the way the seed refuses a document whose parts would land in another table. Reading, searching
 * and annotating those logs stays open.
 */
public final class LogPlacement {

  /** Path prefixes only the platform writes. */
  public static final List<String> PLATFORM_PREFIXES =
      List.of(LogKey.WORK_UNIT_LOGS, LogKey.EXECUTION_TRANSCRIPTS);

  /** A write the door refuses because of where the log is filed; nothing was written. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  private LogPlacement() {}

  /** Refuses {@code key} if its path lies in a namespace only the platform writes. */
  public static void checkWritable(LogKey key) {
    for (String prefix : PLATFORM_PREFIXES) {
      if (key.path().startsWith(prefix) || (key.path() + "/").equals(prefix)) {
        throw new Refused(
            "log.path: \""
                + key.path()
                + "\" lies under \""
                + prefix
                + "\", which only the platform writes (its parts would be interleaved with the"
                + " platform's own log there); file the log under another path");
      }
    }
  }
}
