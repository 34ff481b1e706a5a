package dev.protomolt.statemachines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One golden case: compiles {@code <dir>/graph.json} and compares the bytes with
 * {@code <dir>/expected.asl.json}. On a mismatch the new output goes to
 * {@code <actualRoot>/<case>/expected.asl.json} and the result explains what to do.
 */
record GoldenCase(String name, Path dir) {

  static final String GRAPH = "graph.json";
  static final String EXPECTED = "expected.asl.json";

  /**
   * @param update rewrite the expected file with the new output first (-Dgolden.update=true)
   * @return empty when the golden is current, else the failure message with a diff
   */
  Optional<String> check(Path actualRoot, boolean update) throws IOException {
    Path expectedFile = dir.resolve(EXPECTED);
    String actual =
        StateMachineCompiler.compile(CompileGraph.read(dir.resolve(GRAPH))).definition();
    if (update) {
      Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
    }
    String expected =
        Files.exists(expectedFile) ? Files.readString(expectedFile, StandardCharsets.UTF_8) : "";
    if (expected.equals(actual)) {
      return Optional.empty();
    }
    Path review = actualRoot.resolve(name).resolve(EXPECTED);
    Files.createDirectories(review.getParent());
    Files.writeString(review, actual, StandardCharsets.UTF_8);
    return Optional.of(
        "golden "
            + expectedFile
            + " is stale; the new output is in "
            + review.toAbsolutePath()
            + "\nreview it, then run: ./mvnw -B -pl statemachines -am verify -Dgolden.update=true\n"
            + GoldenDiff.describe(expected, actual));
  }
}
