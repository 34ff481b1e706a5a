package dev.protomolt.cli;

import dev.protomolt.module.samples.sink.IndexSearch;
import dev.protomolt.module.samples.sink.SearchHit;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt search TEXT}: a text query against the sample index sink's Lucene index under
 * the data folder. Reading needs no running platform: Lucene readers never take the write lock.
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = "Search what the sample index sink has indexed.")
final class SearchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Parameters(arity = "1..*", paramLabel = "TEXT")
  List<String> words;

  @Option(
      names = "--limit",
      defaultValue = "10",
      paramLabel = "N",
      description = "At most N hits (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() {
    if (limit < 1 || limit > 1000) {
      throw new ParameterException(
          spec.commandLine(), "--limit: must be between 1 and 1000, got " + limit);
    }
    Path index = LocalEnvironment.indexDir(data.data);
    if (!Files.isDirectory(index) || !hasCommit(index)) {
      throw CommandFailure.refused(
          "no search index at "
              + index
              + " — run `protomolt demo --data "
              + data.data
              + "`, or ingest documents through a graph that ends in the index sink");
    }
    String text = String.join(" ", words);
    List<SearchHit> hits;
    try {
      hits = IndexSearch.at(index).text(text, limit);
    } catch (IOException e) {
      throw CommandFailure.refused(
          "cannot read the search index at " + index + ": " + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (hits.isEmpty()) {
      out.println("no hits for \"" + text + "\"");
    }
    for (SearchHit hit : hits) {
      out.printf("%.3f  %s  %s%n       %s%n", hit.score(), hit.docId(), hit.title(), hit.snippet());
    }
    out.flush();
    return 0;
  }

  private static boolean hasCommit(Path index) {
    try (var files = Files.list(index)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    } catch (IOException e) {
      return false;
    }
  }
}
