package dev.protomolt.repository.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.TextWindows;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * On the durable store: however a text is split into appends (redelivered ones included), the
 * parts in PostgreSQL are exactly the 1000/150 windows of the whole text, a part is in the store
 * and the index as soon as its window completes, and the seal records the whole text's SHA-256.
 */
class PostgresDocumentLogEquivalenceTest {

  private static PostgresFixture db;

  @BeforeContainer
  static void start() {
    db = PostgresFixture.start();
  }

  @AfterContainer
  static void stop() throws Exception {
    db.close();
  }

  @Property(tries = 25)
  void durablePartsEqualTheDefaultWindowsOfTheWholeText(
      @ForAll("texts") String text,
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 1, max = 1400) Integer> chunkLengths,
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 300) Integer> rewinds)
      throws Exception {
    PostgresDocumentLogStore store = new PostgresDocumentLogStore(db.dataSource());
    PostgresLogPartIndex index = new PostgresLogPartIndex(db.dataSource());
    DocumentLog log = new DocumentLog(store, index);
    LogKey key = new LogKey("acme", "jobs/" + UUID.randomUUID());
    log.open(key, WindowSpec.DEFAULT);
    List<DocumentPart> expected = TextWindows.cut(text);

    int held = 0;
    for (int i = 0; held < text.length(); i++) {
      // Each append may first back up, as a redelivery repeating text the log already holds.
      int from = Math.max(0, held - rewinds.get(i % rewinds.size()));
      int to = Math.min(text.length(), held + chunkLengths.get(i % chunkLengths.size()));
      held = (int) log.append(key, text.substring(from, to), from).length();
      assertThat(held).isEqualTo(to);
      // Mid-stream, the written parts are a prefix of the final cut: written as they complete.
      List<DocumentPart> written = store.parts(key);
      assertThat(expected.subList(0, written.size())).isEqualTo(written);
      assertThat(store.load(key).orElseThrow().nextPartIndex()).isEqualTo(written.size());
    }
    DocumentLog.Sealed sealed = log.seal(key);

    assertThat(store.parts(key)).isEqualTo(expected);
    assertThat(sealed.parts()).isEqualTo(expected.size());
    assertThat(sealed.sha256())
        .isEqualTo(
            HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(StandardCharsets.UTF_8))));
    assertThat(log.read(key)).contains(text);
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.integers().between(0x20, 0x7e)),
            Tuple.of(2, Arbitraries.integers().between(0xc0, 0x17f)),
            Tuple.of(2, Arbitraries.integers().between(0x1f300, 0x1f64f)),
            Tuple.of(1, Arbitraries.of(0x0a, 0x00)))
        .list()
        .ofMinSize(0)
        .ofMaxSize(4500)
        .map(
            codePoints -> {
              StringBuilder text = new StringBuilder();
              codePoints.forEach(text::appendCodePoint);
              return text.toString();
            });
  }
}
