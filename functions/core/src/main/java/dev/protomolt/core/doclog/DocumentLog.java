package dev.protomolt.core.doclog;

import dev.protomolt.core.doclog.DocumentLogRefusal.Reason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes a log document as its text arrives: open it once, append as text comes in, seal it.
 *
 * <p>Every call reads the log's state from the {@link DocumentLogStore} and writes it back, so
 * nothing lives only in this object and any number of instances may serve the same log. The moment
 * a window completes, its part is written to the store and upserted into the {@link LogPartIndex};
 * only then is the state's tail trimmed, with a write conditional on the state not having moved
 * since it was read. A call that fails or loses that race therefore leaves the log as it was, and a
 * retry rewrites the same parts with the same content, because a part is a pure function of the
 * text. However the text is split into appends, the parts equal {@link TextWindows#cut}.
 */
public final class DocumentLog {

  /** Conditional writes lost to other writers before a call gives up and asks to be retried. */
  static final int MAX_ATTEMPTS = 8;

  private final DocumentLogStore store;
  private final LogPartIndex index;
  private final LogOriginals originals;

  /** A log whose seal records the original's hash but stores no copy of it. */
  public DocumentLog(DocumentLogStore store, LogPartIndex index) {
    this(store, index, LogOriginals.NONE);
  }

  /** A log whose seal also stores the original text as one object in {@code originals}. */
  public DocumentLog(DocumentLogStore store, LogPartIndex index, LogOriginals originals) {
    this.store = Objects.requireNonNull(store, "store: must not be null");
    this.index = Objects.requireNonNull(index, "index: must not be null");
    this.originals = Objects.requireNonNull(originals, "originals: must not be null");
  }

  /** What one append did: chars skipped as already held, chars added, and the parts it emitted. */
  public record Appended(long skipped, long added, long length, List<DocumentPart> emitted) {}

  /**
   * A sealed log: how many parts it has, its original's length and SHA-256, and where the original
   * is stored ({@code ""} when it is not).
   */
  public record Sealed(LogKey key, int parts, long length, String sha256, String original) {
    /** A seal whose original was not stored as an object. */
    public Sealed(LogKey key, int parts, long length, String sha256) {
      this(key, parts, length, sha256, "");
    }
  }

  /**
   * Opens the log under {@code key}, or returns it if it is already open. The windows are fixed
   * here: opening an existing log with other windows is refused.
   */
  public DocumentLogState open(LogKey key, WindowSpec windows) {
    Objects.requireNonNull(key, "key: must not be null");
    Objects.requireNonNull(windows, "windows: must not be null");
    DocumentLogState stored = store.createIfAbsent(DocumentLogState.opened(key, windows));
    if (!stored.windows().equals(windows)) {
      throw new DocumentLogRefusal(
          Reason.WINDOWS_DIFFER,
          "windows",
          "log "
              + key
              + " was opened with size "
              + stored.windows().size()
              + " and overlap "
              + stored.windows().overlap()
              + "; windows are fixed at open (got size "
              + windows.size()
              + " and overlap "
              + windows.overlap()
              + ")");
    }
    return stored;
  }

  /**
   * Appends {@code text}, which the producer says starts at {@code producerOffset} (in UTF-16
   * chars) of the original. Whatever the log already holds is skipped, so a redelivered or
   * overlapping append never duplicates text; an offset past the end would leave a gap and is
   * refused. An append that adds nothing is accepted even after the log is sealed, so a late
   * redelivery never fails; one that would add text to a sealed log is refused.
   */
  public Appended append(LogKey key, String text, long producerOffset) {
    Objects.requireNonNull(key, "key: must not be null");
    if (text == null) {
      throw new IllegalArgumentException("text: must not be null");
    }
    if (producerOffset < 0) {
      throw new IllegalArgumentException(
          "producerOffset: must not be negative (got " + producerOffset + ")");
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      DocumentLogState state = loadOpen(key);
      long held = state.length();
      if (producerOffset > held) {
        throw new DocumentLogRefusal(
            Reason.GAP,
            "producerOffset",
            producerOffset
                + " is past the end of log "
                + key
                + ", which holds "
                + held
                + " chars; taking it would leave a gap of "
                + (producerOffset - held)
                + " chars (append from offset "
                + held
                + " instead)");
      }
      checkRedeliveredText(state, text, producerOffset);
      long skip = held - producerOffset;
      if (skip >= text.length()) {
        return new Appended(text.length(), 0, held, List.of());
      }
      if (state.sealed()) {
        throw new DocumentLogRefusal(
            Reason.SEALED,
            "key",
            "log " + key + " is sealed at " + held + " chars; an append may not add text to it");
      }
      String grown = state.tail() + text.substring((int) skip);
      Cut cut = cut(state.windows(), state.nextPartIndex(), state.tailStart(), grown, false);
      write(key, cut.parts());
      DocumentLogState next = state.advanced(cut.nextIndex(), cut.tailStart(), cut.tail(), null);
      if (store.replace(next, state.version())) {
        return new Appended(skip, text.length() - skip, next.length(), cut.parts());
      }
    }
    throw contended(key);
  }

  /**
   * Seals the log: writes the trailing partial part, stores the original's UTF-8 bytes through the
   * {@link LogOriginals} and records its length, SHA-256 and location. The original is stored
   * before the state moves, so a seal that fails part way leaves the log open and a retry stores
   * the same bytes again. Sealing a sealed log returns the same result again.
   */
  public Sealed seal(LogKey key) {
    Objects.requireNonNull(key, "key: must not be null");
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      DocumentLogState state = loadOpen(key);
      if (state.sealed()) {
        return new Sealed(
            key,
            state.nextPartIndex(),
            state.seal().length(),
            state.seal().sha256(),
            state.seal().original());
      }
      Cut cut = cut(state.windows(), state.nextPartIndex(), state.tailStart(), state.tail(), true);
      write(key, cut.parts());
      DocumentLogState.Seal seal = originalOf(key, state.length(), cut.nextIndex());
      DocumentLogState next = state.advanced(cut.nextIndex(), state.length(), "", seal);
      if (store.replace(next, state.version())) {
        return new Sealed(key, cut.nextIndex(), seal.length(), seal.sha256(), seal.original());
      }
    }
    throw contended(key);
  }

  /**
   * The text the log holds so far, reassembled from its parts and its unsealed tail; empty when
   * no log is open under {@code key}. A log is readable while it is still being written.
   */
  public Optional<String> read(LogKey key) {
    Objects.requireNonNull(key, "key: must not be null");
    Optional<DocumentLogState> loaded = store.load(key);
    if (loaded.isEmpty()) {
      return Optional.empty();
    }
    DocumentLogState state = loaded.get();
    StringBuilder text = new StringBuilder();
    long covered = 0;
    for (DocumentPart part : store.parts(key)) {
      if (part.index() >= state.nextPartIndex()) {
        // A part written by a call that lost its race: the state does not count it yet.
        break;
      }
      if (part.start() > covered) {
        throw new IllegalStateException(
            "log "
                + key
                + ": stored part "
                + part.index()
                + " at offset "
                + part.start()
                + " leaves a hole after offset "
                + covered);
      }
      if (part.end() > covered) {
        text.append(part.text(), (int) (covered - part.start()), part.text().length());
        covered = part.end();
      }
    }
    if (state.length() > covered) {
      text.append(state.tail(), (int) (covered - state.tailStart()), state.tail().length());
    }
    return Optional.of(text.toString());
  }

  /** The log's state (length, parts written, seal); empty when no log is open under {@code key}. */
  public Optional<DocumentLogState> status(LogKey key) {
    Objects.requireNonNull(key, "key: must not be null");
    return store.load(key);
  }

  private DocumentLogState loadOpen(LogKey key) {
    return store
        .load(key)
        .orElseThrow(
            () ->
                new DocumentLogRefusal(
                    Reason.NOT_OPEN,
                    "key",
                    "no log is open under " + key + "; open it before appending or sealing"));
  }

  private void write(LogKey key, List<DocumentPart> parts) {
    for (DocumentPart part : parts) {
      store.putPart(key, part);
      index.upsert(key, part);
    }
  }

  /**
   * A redelivery must repeat the text the log holds. Only the overlap with the unsealed tail can
   * be compared without reading parts back; a difference there means the producer's offsets are
   * wrong, and taking the text would corrupt the log.
   */
  private static void checkRedeliveredText(DocumentLogState state, String text, long offset) {
    long from = Math.max(offset, state.tailStart());
    long to = Math.min(offset + text.length(), state.length());
    for (long at = from; at < to; at++) {
      if (text.charAt((int) (at - offset)) != state.tail().charAt((int) (at - state.tailStart()))) {
        throw new DocumentLogRefusal(
            Reason.CONFLICT,
            "text",
            "differs at offset "
                + at
                + " from the text log "
                + state.key()
                + " already holds; a redelivered append must repeat the same text");
      }
    }
  }

  private record Cut(List<DocumentPart> parts, int nextIndex, long tailStart, String tail) {}

  /**
   * Emits every window of {@code tail} that is complete. A trailing high surrogate is not counted
   * until its pair arrives, unless the log is sealing. When sealing, the trailing partial window is
   * emitted too, under the same rule as {@link TextWindows}: only if it reaches past the window
   * before it.
   */
  private static Cut cut(
      WindowSpec windows, int nextIndex, long tailStart, String tail, boolean sealing) {
    List<DocumentPart> parts = new ArrayList<>();
    int countableEnd =
        !sealing && !tail.isEmpty() && Character.isHighSurrogate(tail.charAt(tail.length() - 1))
            ? tail.length() - 1
            : tail.length();
    int from = 0;
    int index = nextIndex;
    while (true) {
      int end = charIndexAfter(tail, from, windows.size(), countableEnd);
      if (end < 0) {
        break;
      }
      parts.add(DocumentPart.of(index++, tailStart + from, tail.substring(from, end)));
      from = charIndexAfter(tail, from, windows.step(), countableEnd);
    }
    if (!sealing) {
      return new Cut(parts, index, tailStart + from, tail.substring(from));
    }
    int reachNeeded = index == 0 ? 0 : windows.overlap();
    if (charIndexAfter(tail, from, reachNeeded + 1, tail.length()) >= 0) {
      parts.add(DocumentPart.of(index++, tailStart + from, tail.substring(from)));
    }
    return new Cut(parts, index, tailStart + tail.length(), "");
  }

  /** The char index {@code codePoints} code points after {@code from}, or -1 past {@code limit}. */
  private static int charIndexAfter(String text, int from, int codePoints, int limit) {
    int at = from;
    for (int i = 0; i < codePoints; i++) {
      if (at >= limit) {
        return -1;
      }
      boolean pair =
          at + 1 < limit
              && Character.isHighSurrogate(text.charAt(at))
              && Character.isLowSurrogate(text.charAt(at + 1));
      at += pair ? 2 : 1;
    }
    return at;
  }

  /**
   * Reassembles the original from the stored parts, checking they cover it without a hole, and
   * stores it through the {@link LogOriginals}.
   */
  private DocumentLogState.Seal originalOf(LogKey key, long length, int partCount) {
    List<DocumentPart> parts = store.parts(key);
    StringBuilder text = new StringBuilder();
    long covered = 0;
    for (int i = 0; i < parts.size(); i++) {
      DocumentPart part = parts.get(i);
      if (part.index() != i || part.start() > covered) {
        throw new IllegalStateException(
            "log "
                + key
                + ": stored part "
                + part.index()
                + " at offset "
                + part.start()
                + " leaves a hole after offset "
                + covered
                + "; the store lost a part, refusing to seal");
      }
      if (part.end() > covered) {
        text.append(part.text(), (int) (covered - part.start()), part.text().length());
        covered = part.end();
      }
    }
    if (parts.size() != partCount || covered != length) {
      throw new IllegalStateException(
          "log "
              + key
              + ": stored parts cover "
              + covered
              + " of "
              + length
              + " chars in "
              + parts.size()
              + " of "
              + partCount
              + " parts; the store lost a part, refusing to seal");
    }
    byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
    String sha256 = TextDigest.sha256(utf8);
    return new DocumentLogState.Seal(length, sha256, originals.put(key, utf8, sha256));
  }

  private static DocumentLogRefusal contended(LogKey key) {
    return new DocumentLogRefusal(
        Reason.CONTENDED,
        "key",
        "log "
            + key
            + " kept changing under "
            + MAX_ATTEMPTS
            + " attempts by other writers; retry the call as it is");
  }
}
