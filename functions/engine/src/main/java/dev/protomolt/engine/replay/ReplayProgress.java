package dev.protomolt.engine.replay;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a replay run stands between two pages, carried in the state machine's state (never a
 * database cursor): the keyset cursor after the last candidate read, the pages and candidates so
 * far, the counts by verdict ({@code started}, {@code already_started}, {@code would_start} or a
 * skip verdict), how many pages this execution has run and which continuation it is. {@code next}
 * tells the state machine what to do: {@link #PAGE}, {@link #CONTINUE} as a new execution named
 * {@code continuationName}, or {@link #DONE}. {@code unreplayed} names the first {@link
 * #NAMED_UNREPLAYED} candidates whose source could not be fetched again ({@code doc id: verdict}),
 * so the output says which documents the counts mean without growing with the run (decision 1524).
 */
public record ReplayProgress(
    String cursor,
    long pages,
    long candidates,
    Map<String, Long> counts,
    int pagesInExecution,
    int generation,
    String next,
    String continuationName,
    List<String> unreplayed) {

  /** How many unreplayed candidates the state names; the counts hold them all. */
  public static final int NAMED_UNREPLAYED = 25;

  public static final String PAGE = "page";
  public static final String CONTINUE = "continue";
  public static final String DONE = "done";

  public ReplayProgress {
    counts = Collections.unmodifiableMap(new TreeMap<>(counts));
    unreplayed = List.copyOf(unreplayed);
  }

  /** A run before its first page. */
  public static ReplayProgress start(String cursor) {
    return new ReplayProgress(cursor, 0, 0, Map.of(), 0, 0, PAGE, "", List.of());
  }

  /** The first state of a continuation execution: the same run, a fresh history budget. */
  public ReplayProgress continued() {
    return new ReplayProgress(
        cursor, pages, candidates, counts, 0, generation + 1, PAGE, "", unreplayed);
  }

  public long count(String verdict) {
    return counts.getOrDefault(verdict, 0L);
  }
}
