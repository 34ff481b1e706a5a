package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Compiles the largest golden graph in a second JVM started with a different locale, default
 * charset, time zone and garbage collector, and requires the same bytes as this JVM produces: the
 * compiler must not depend on platform defaults or on hash order.
 */
class ForkedCompileTest {

  @Test
  void aSecondJvmWithOtherPlatformDefaultsProducesIdenticalBytes() throws Exception {
    Path graph = GoldenGraphTest.GOLDEN.resolve("largest-realistic").resolve("graph.json");
    String here = StateMachineCompiler.compile(CompileGraph.read(graph)).definition();

    Path out = Files.createTempFile("forked-compile", ".asl.json");
    try {
      Process process =
          new ProcessBuilder(
                  List.of(
                      Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                      "-Xmx256m",
                      "-XX:+UseParallelGC",
                      "-Duser.language=tr",
                      "-Duser.country=TR",
                      "-Dfile.encoding=ISO-8859-1",
                      "-Duser.timezone=Pacific/Kiritimati",
                      "-cp",
                      System.getProperty("java.class.path"),
                      CompileGraph.class.getName(),
                      graph.toString(),
                      out.toString()))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("forked compiler finished").isTrue();
      assertThat(process.exitValue()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(here.getBytes(StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @Test
  void theCommandLineReportsAGraphItCannotCompile() throws IOException, InterruptedException {
    Path bad = Files.createTempFile("bad-graph", ".json");
    try {
      Files.writeString(
          bad,
          "{\"graphId\": \"g\", \"version\": \"1\", \"nodes\": [{\"nodeId\": \"p\", \"nodeType\":"
              + " \"NODE_TYPE_PROCESSOR\"}]}");
      Process process =
          new ProcessBuilder(
                  List.of(
                      Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                      "-Xmx128m",
                      "-cp",
                      System.getProperty("java.class.path"),
                      CompileGraph.class.getName(),
                      bad.toString()))
              .redirectErrorStream(true)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).isEqualTo(1);
      assertThat(output).contains("node 'p': a PROCESSOR node needs module_id");
    } finally {
      Files.deleteIfExists(bad);
    }
  }
}
