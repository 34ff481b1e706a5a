package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compiles every {@code golden/<case>/graph.json} and compares the bytes with the committed
 * {@code expected.asl.json}. A mismatch prints a diff, writes the new output to
 * {@code target/golden-actual/<case>/expected.asl.json} for review and fails; run with
 * {@code -Dgolden.update=true} to accept it. The committed file was written by an earlier JVM, so
 * every passing run is also a cross-JVM byte-identity check (see {@link ForkedCompileTest} for
 * the same within one build).
 *
 * <p>The verify phase then runs {@code asl-validator} over the same committed files
 * ({@code validate-golden.mjs}).
 */
class GoldenGraphTest {

  static final Path GOLDEN = Path.of("golden");
  static final Path ACTUAL = Path.of("target", "golden-actual");

  static Stream<String> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(GOLDEN)) {
      return dirs
          .filter(Files::isDirectory)
          .map(d -> d.getFileName().toString())
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void compiledDefinitionMatchesTheCommittedGolden(String name) throws IOException {
    GoldenCase golden = new GoldenCase(name, GOLDEN.resolve(name));
    Optional<String> stale = golden.check(ACTUAL, Boolean.getBoolean("golden.update"));
    stale.ifPresent(message -> fail(message));
    String definition =
        Files.readString(GOLDEN.resolve(name).resolve(GoldenCase.EXPECTED), StandardCharsets.UTF_8);
    assertThat(withPlaceholderArns(definition))
        .as("every ${...} in " + name + " is a known substitution")
        .doesNotContain("${");
  }

  @Test
  void aStaleGoldenFailsWithADiffAndLeavesTheNewOutputForReview(@TempDir Path temp)
      throws IOException {
    Path dir = temp.resolve("golden").resolve("linear");
    Files.createDirectories(dir);
    Files.copy(GOLDEN.resolve("linear").resolve(GoldenCase.GRAPH), dir.resolve(GoldenCase.GRAPH));
    String current =
        Files.readString(
            GOLDEN.resolve("linear").resolve(GoldenCase.EXPECTED), StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve(GoldenCase.EXPECTED),
        current.replace("\"heartbeatSeconds\": 30", "\"heartbeatSeconds\": 31"));
    Path actualRoot = temp.resolve("actual");

    String message = new GoldenCase("linear", dir).check(actualRoot, false).orElseThrow();
    assertThat(message)
        .contains("is stale")
        .contains("-Dgolden.update=true")
        .contains("-           \"heartbeatSeconds\": 31,")
        .contains("+           \"heartbeatSeconds\": 30,");
    assertThat(actualRoot.resolve("linear").resolve(GoldenCase.EXPECTED))
        .content(StandardCharsets.UTF_8)
        .isEqualTo(current);

    assertThat(new GoldenCase("linear", dir).check(actualRoot, true))
        .as("update mode rewrites the golden")
        .isEmpty();
    assertThat(dir.resolve(GoldenCase.EXPECTED)).content(StandardCharsets.UTF_8).isEqualTo(current);
    assertThat(new GoldenCase("linear", dir).check(actualRoot, false)).isEmpty();
  }

  @Test
  void everyGoldenCaseHasAGraphAndACompiledDefinition() throws IOException {
    List<String> names = cases().toList();
    assertThat(names)
        .contains(
            "linear",
            "conditional-routes",
            "fan-out-mixed-edges",
            "drop-and-skip-filters",
            "dlq-save-on-error",
            "intake-two-datasources",
            "largest-realistic");
    for (String name : names) {
      assertThat(GOLDEN.resolve(name).resolve("graph.json")).as(name).isRegularFile();
      assertThat(GOLDEN.resolve(name).resolve("expected.asl.json")).as(name).isRegularFile();
    }
  }

  /** Replaces every known {@code ${Name}}; anything left over is a substitution nobody supplies. */
  static String withPlaceholderArns(String definition) {
    String result = definition;
    for (String name : StateMachineCompiler.SUBSTITUTIONS) {
      String arn =
          name.equals(StateMachineCompiler.STATE_MACHINE_VERSION_ARN)
              ? "arn:aws:states:eu-west-1:123456789012:stateMachine:protomolt-golden:1"
              : "arn:aws:lambda:eu-west-1:123456789012:function:protomolt-"
                  + name.replace("FunctionArn", "").toLowerCase(Locale.ROOT);
      result = result.replace("${" + name + "}", arn);
    }
    return result;
  }
}
