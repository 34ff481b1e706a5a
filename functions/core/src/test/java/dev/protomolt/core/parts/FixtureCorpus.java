package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * The committed fixture corpus and the tool that generates it. Each document {@code NNN} is stored
 * as {@code NNN.pb} (its canonical bytes) and {@code NNN.manifest.json} (the manifest the codec
 * produced for it under node id {@link #nodeId(int)}). {@link FixtureCorpusTest} re-splits every
 * document and compares with the stored manifest, so a codec change that alters any fragment byte,
 * key or checksum fails the build until the corpus is deliberately regenerated.
 *
 * <p>Regenerate (then review the diff) with
 * {@code ./mvnw -B -pl functions/core -am verify -Dtest=FixtureCorpusTest -Dsurefire.failIfNoSpecifiedTests=false -Dcorpus.regenerate=true},
 * or run {@link #main} with the target directory.
 */
public final class FixtureCorpus {
  /** The generator's seed; the same seed always yields the same corpus. */
  public static final long SEED = 0x6f543de966eabd24L;

  /** Generated documents, after the hand-shaped ones. */
  static final int GENERATED = 44;

  /** Where the corpus lives, relative to the functions/core module. */
  public static final Path DIRECTORY = Path.of("src/test/resources/corpus");

  private FixtureCorpus() {}

  /** The corpus documents, in order: a few hand-shaped edge cases, then the seeded ones. */
  public static List<PipeDoc> documents() {
    List<PipeDoc> docs = new ArrayList<>();
    docs.add(PipeDoc.getDefaultInstance());
    docs.add(PipeDoc.newBuilder().setDocId("only-an-id").build());
    docs.add(
        PipeDoc.newBuilder()
            .setDocId("present-but-empty")
            .setSearchMetadata(SearchMetadata.getDefaultInstance())
            .setBlobBag(BlobBag.getDefaultInstance())
            .build());
    docs.add(SampleDocuments.full());
    Random random = new Random(SEED);
    for (int i = 0; i < GENERATED; i++) {
      DocumentRecipe recipe = RandomDocuments.recipe(random);
      docs.add(RandomDocuments.build(recipe, random));
    }
    return docs;
  }

  /** Number of documents in the corpus. */
  public static int size() {
    return 4 + GENERATED;
  }

  /**
   * The committed bytes of document {@code index}, read from the classpath so other modules'
   * tests (through the test jar) can run the same corpus through real storage.
   */
  public static byte[] committedBytes(int index) throws IOException {
    return resource(name(index) + ".pb");
  }

  /** The committed manifest JSON of document {@code index}, from the classpath. */
  public static String committedManifestJson(int index) throws IOException {
    return new String(resource(name(index) + ".manifest.json"), StandardCharsets.UTF_8);
  }

  private static byte[] resource(String file) throws IOException {
    try (var in = FixtureCorpus.class.getResourceAsStream("/corpus/" + file)) {
      if (in == null) {
        throw new IOException("corpus file " + file + " is not on the classpath");
      }
      return in.readAllBytes();
    }
  }

  /** The node id document {@code index} is split under. */
  public static UUID nodeId(int index) {
    return UUID.nameUUIDFromBytes(("protomolt-corpus-" + index).getBytes(StandardCharsets.UTF_8));
  }

  public static String name(int index) {
    return "%03d".formatted(index);
  }

  /** Writes the corpus, replacing what is in {@code directory}. */
  public static void write(Path directory) throws IOException {
    Files.createDirectories(directory);
    try (var old = Files.list(directory)) {
      for (Path file :
          old.filter(p -> p.toString().endsWith(".pb") || p.toString().endsWith(".json"))
              .toList()) {
        Files.delete(file);
      }
    }
    PipeDocPartCodec codec = new PipeDocPartCodec();
    List<PipeDoc> docs = documents();
    for (int i = 0; i < docs.size(); i++) {
      PipeDoc doc = docs.get(i);
      Files.write(directory.resolve(name(i) + ".pb"), doc.toByteArray());
      String json = ManifestJson.toJson(codec.split(nodeId(i), doc).manifest());
      Files.writeString(directory.resolve(name(i) + ".manifest.json"), json + "\n");
    }
  }

  public static void main(String[] args) throws IOException {
    Path directory = args.length > 0 ? Path.of(args[0]) : DIRECTORY;
    write(directory);
    System.out.println(
        "wrote "
            + documents().size()
            + " documents (seed "
            + Long.toHexString(SEED)
            + ") to "
            + directory.toAbsolutePath());
  }
}
