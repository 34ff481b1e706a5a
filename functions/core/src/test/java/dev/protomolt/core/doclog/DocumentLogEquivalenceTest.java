package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * However a text is split into appends, redelivered or overlapping, a streamed log's parts are
 * exactly {@link TextWindows#cut} of the whole text, and its seal records the whole text's length
 * and SHA-256.
 */
class DocumentLogEquivalenceTest {

  private static final LogKey KEY = LogKey.executionTranscript("logs", "exec-1");

  @Property(tries = 300)
  void streamedPartsEqualTheWindowsOfTheWholeText(
      @ForAll("texts") String text,
      @ForAll("windows") WindowSpec windows,
      @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 60) Integer> chunkLengths,
      @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 12) Integer> rewinds) {
    InMemoryDocumentLogStore store = new InMemoryDocumentLogStore();
    InMemoryLogPartIndex index = new InMemoryLogPartIndex();
    DocumentLog log = new DocumentLog(store, index);
    log.open(KEY, windows);

    // The producer sends chunks of the given lengths; each may first back up by a rewind, as a
    // redelivery that repeats text the log already holds. A zero length repeats without adding.
    List<DocumentPart> expected = TextWindows.cut(text, windows);
    int held = 0;
    for (int i = 0; i < chunkLengths.size() && held < text.length(); i++) {
      int from = Math.max(0, held - (rewinds.isEmpty() ? 0 : rewinds.get(i % rewinds.size())));
      int to = Math.min(text.length(), held + chunkLengths.get(i));
      held = (int) log.append(KEY, text.substring(from, to), from).length();
      assertThat(held).isEqualTo(to);
      // Mid-stream, exactly the windows that fit in what the log holds are written: the first
      // parts of the final cut, each a full window.
      assertThat(store.parts(KEY))
          .isEqualTo(expected.subList(0, completeWindows(text, held, windows)));
      DocumentLogState state = store.load(KEY).orElseThrow();
      assertThat(state.tail().codePointCount(0, state.tail().length()))
          .isLessThanOrEqualTo(windows.size());
    }
    log.append(KEY, text.substring(held), held);
    DocumentLog.Sealed sealed = log.seal(KEY);

    assertThat(store.parts(KEY)).isEqualTo(expected);
    assertThat(sealed.parts()).isEqualTo(expected.size());
    assertThat(sealed.length()).isEqualTo(text.length());
    assertThat(sealed.sha256()).isEqualTo(TextDigest.sha256(text));
    for (DocumentPart part : expected) {
      assertThat(part.text()).isEqualTo(text.substring((int) part.start(), (int) part.end()));
      assertThat(part.sha256()).isEqualTo(TextDigest.sha256(part.text()));
    }
  }

  @Property(tries = 20)
  void defaultWindowsOverLongTextsStreamTheSameParts(
      @ForAll("longTexts") String text,
      @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 1, max = 900) Integer> chunkLengths) {
    InMemoryDocumentLogStore store = new InMemoryDocumentLogStore();
    DocumentLog log = new DocumentLog(store, new InMemoryLogPartIndex());
    log.open(KEY, WindowSpec.DEFAULT);
    int held = 0;
    for (int i = 0; held < text.length(); i++) {
      int to = Math.min(text.length(), held + chunkLengths.get(i % chunkLengths.size()));
      held = (int) log.append(KEY, text.substring(held, to), held).length();
    }
    log.seal(KEY);
    assertThat(store.parts(KEY)).isEqualTo(TextWindows.cut(text));
  }

  /**
   * How many full windows fit in the first {@code held} chars; a high surrogate at the very end
   * does not count yet, since its pair may still arrive.
   */
  private static int completeWindows(String text, int held, WindowSpec windows) {
    int countable = held > 0 && Character.isHighSurrogate(text.charAt(held - 1)) ? held - 1 : held;
    int codePoints = text.codePointCount(0, countable);
    return codePoints < windows.size() ? 0 : (codePoints - windows.size()) / windows.step() + 1;
  }

  @Provide
  Arbitrary<WindowSpec> windows() {
    return Arbitraries.integers()
        .between(1, 24)
        .flatMap(
            size ->
                Arbitraries.integers()
                    .between(0, size - 1)
                    .map(overlap -> new WindowSpec(size, overlap)));
  }

  @Provide
  Arbitrary<String> texts() {
    return codePoints().list().ofMaxSize(300).map(DocumentLogEquivalenceTest::join);
  }

  @Provide
  Arbitrary<String> longTexts() {
    return codePoints().list().ofMinSize(900).ofMaxSize(5000).map(DocumentLogEquivalenceTest::join);
  }

  /**
   * ASCII most of the time, with accented letters, CJK, emoji outside the BMP (surrogate pairs)
   * and the odd unpaired surrogate, which a producer splitting UTF-16 text may well send.
   */
  private static Arbitrary<Integer> codePoints() {
    return Arbitraries.frequencyOf(
        Tuple.of(10, Arbitraries.integers().between(0x20, 0x7e)),
        Tuple.of(2, Arbitraries.integers().between(0xc0, 0x17f)),
        Tuple.of(2, Arbitraries.integers().between(0x4e00, 0x4e80)),
        Tuple.of(4, Arbitraries.integers().between(0x1f300, 0x1f64f)),
        Tuple.of(1, Arbitraries.integers().between(0xd800, 0xdfff)));
  }

  private static String join(List<Integer> codePoints) {
    StringBuilder text = new StringBuilder();
    codePoints.forEach(text::appendCodePoint);
    return text.toString();
  }
}
