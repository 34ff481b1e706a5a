package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Gates the codec on the committed corpus: every stored document splits into exactly the stored
 * manifest (same fragment hashes, sizes, keys, checksum) and assembles back to the same SHA-256.
 */
class FixtureCorpusTest {
  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  @BeforeAll
  static void regenerateWhenAsked() throws Exception {
    if (Boolean.getBoolean("corpus.regenerate")) {
      FixtureCorpus.write(FixtureCorpus.DIRECTORY);
    }
  }

  @Test
  void everyCorpusDocumentSplitsToItsStoredManifestAndAssemblesToItsOriginalBytes()
      throws Exception {
    int count = FixtureCorpus.documents().size();
    assertThat(FixtureCorpus.DIRECTORY.resolve(FixtureCorpus.name(count - 1) + ".pb")).exists();
    for (int i = 0; i < count; i++) {
      byte[] original = Files.readAllBytes(file(i, ".pb"));
      PipeDocManifest stored = ManifestJson.fromJson(Files.readString(file(i, ".manifest.json")));

      SplitDocument split = codec.split(ObjectKeys.forNode(FixtureCorpus.nodeId(i)), original);

      assertThat(split.manifest())
          .as("manifest of corpus document %s", FixtureCorpus.name(i))
          .isEqualTo(stored);
      byte[] assembled = codec.assembleBytes(stored, split.bytesByObjectKey());
      assertThat(Sha256Hex.of(assembled))
          .as("SHA-256 of corpus document %s", FixtureCorpus.name(i))
          .isEqualTo(Sha256Hex.of(original));
    }
  }

  @Test
  void theRecordedSeedStillProducesTheCommittedCorpus() throws Exception {
    List<PipeDoc> docs = FixtureCorpus.documents();
    assertThat(docs).hasSize(FixtureCorpus.size());
    try (var files = Files.list(FixtureCorpus.DIRECTORY)) {
      assertThat(files.filter(p -> p.toString().endsWith(".pb")).count()).isEqualTo(docs.size());
    }
    for (int i = 0; i < docs.size(); i++) {
      assertThat(Files.readAllBytes(file(i, ".pb")))
          .as("corpus document %s", FixtureCorpus.name(i))
          .isEqualTo(docs.get(i).toByteArray());
      if (!Boolean.getBoolean("corpus.regenerate")) {
        // The classpath copy (what other modules read through the test jar) is refreshed by
        // the next build after a regeneration, not during it.
        assertThat(FixtureCorpus.committedBytes(i)).isEqualTo(docs.get(i).toByteArray());
        assertThat(FixtureCorpus.committedManifestJson(i))
            .isEqualTo(Files.readString(file(i, ".manifest.json")));
      }
    }
  }

  private static Path file(int index, String suffix) {
    return FixtureCorpus.DIRECTORY.resolve(FixtureCorpus.name(index) + suffix);
  }
}
