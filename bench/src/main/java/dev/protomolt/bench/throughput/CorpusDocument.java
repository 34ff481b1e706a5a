package dev.protomolt.bench.throughput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One document of the committed corpus (bench/corpus, listed in its MANIFEST.tsv). */
public record CorpusDocument(String name, String mimeType, byte[] bytes) {

  /**
   * The documents the manifest lists, formats interleaved; {@code limit} says how many (0: all).
   * Past the corpus's size it repeats under {@code copy-K/} names: another key is another
   * document (the doc id comes from the key), so a run can be as large as a goal asks while every
   * byte is still a real document's.
   */
  public static List<CorpusDocument> load(Path corpus, int limit) throws IOException {
    List<String> lines = Files.readAllLines(corpus.resolve("MANIFEST.tsv"), StandardCharsets.UTF_8);
    List<CorpusDocument> documents = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String name = line.split("\t", 2)[0];
      documents.add(
          new CorpusDocument(
              name, mimeOf(name), Files.readAllBytes(corpus.resolve("docs").resolve(name))));
    }
    if (documents.isEmpty()) {
      throw new IllegalStateException("the corpus manifest under " + corpus + " lists nothing");
    }
    // Spread the formats over any prefix, so a quick run still sees all four.
    List<CorpusDocument> mixed = new ArrayList<>();
    for (int stride = 0; stride < 7; stride++) {
      for (int i = stride; i < documents.size(); i += 7) {
        mixed.add(documents.get(i));
      }
    }
    if (limit <= 0 || limit == mixed.size()) {
      return mixed;
    }
    if (limit < mixed.size()) {
      return mixed.subList(0, limit);
    }
    List<CorpusDocument> repeated = new ArrayList<>(mixed);
    for (int i = mixed.size(); i < limit; i++) {
      CorpusDocument original = mixed.get(i % mixed.size());
      repeated.add(
          new CorpusDocument(
              "copy-" + (i / mixed.size() + 1) + "/" + original.name(),
              original.mimeType(),
              original.bytes()));
    }
    return repeated;
  }

  /** The file name alone, for the upload key. */
  String fileName() {
    return name.substring(name.lastIndexOf('/') + 1);
  }

  private static String mimeOf(String name) {
    String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return switch (extension) {
      case "html" -> "text/html";
      case "md" -> "text/markdown";
      case "pdf" -> "application/pdf";
      case "txt" -> "text/plain";
      default -> throw new IllegalArgumentException("corpus file of no known format: " + name);
    };
  }
}
