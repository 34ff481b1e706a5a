package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/protomolt} refuses clearly without JDK 25. (Running it for real would build the
 * module from inside its own build; the command itself is tested through {@link Main}.)
 */
class LauncherTest {

  /** Surefire runs in the module folder; the launcher is at the repository root. */
  static final Path LAUNCHER = Path.of("..", "bin", "protomolt").toAbsolutePath().normalize();

  record Run(int status, String out, String err) {}

  static Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    String[] command = new String[args.length + 1];
    command[0] = LAUNCHER.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    boolean ended = process.waitFor(120, TimeUnit.SECONDS);
    assertThat(ended).as("the launcher ended").isTrue();
    return new Run(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void withoutJdk25ItSaysWhereItLookedAndHowToPointAtOne() throws Exception {
    assertThat(Files.isExecutable(LAUNCHER)).as("%s", LAUNCHER).isTrue();
    Run run = run(Map.of("JAVA_HOME", "/nonexistent", "PROTOMOLT_JDK", "/no/such/jdk"), "--help");
    assertThat(run.status()).isEqualTo(127);
    assertThat(run.err())
        .contains("protomolt: JDK 25 not found at /no/such/jdk")
        .contains("set PROTOMOLT_JDK (or JAVA_HOME) to a JDK 25+ install");
  }
}
