package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local cloud in its own JVM: told to terminate (SIGTERM, as Ctrl-C or a service manager
 * does) it stops its child processes through its shutdown hook; killed outright (SIGKILL, no hook)
 * it leaves PostgreSQL behind, and the next start on the same folder stops that leftover.
 */
class LocalCloudShutdownHookTest {

  @TempDir Path data;

  @Test
  void terminatingTheJvmStopsPostgresAndDynalite() throws Exception {
    Process cloud = startInChildJvm(data);
    try {
      List<ProcessHandle> servers = processesUnder(data);
      assertThat(servers).as("PostgreSQL and dynalite are running").hasSizeGreaterThanOrEqualTo(2);

      cloud.destroy();

      assertThat(cloud.waitFor(60, TimeUnit.SECONDS)).isTrue();
      for (ProcessHandle server : servers) {
        server.onExit().get(30, TimeUnit.SECONDS);
      }
      assertThat(servers).noneMatch(ProcessHandle::isAlive);
    } finally {
      cloud.destroyForcibly();
    }
  }

  @Test
  void aCloudKilledWithoutItsHookStartsAgainOnTheSameFolder() throws Exception {
    Process killed = startInChildJvm(data);
    List<ProcessHandle> leftovers;
    try {
      killed.destroyForcibly();
      assertThat(killed.waitFor(60, TimeUnit.SECONDS)).isTrue();
      leftovers =
          processesUnder(data).stream()
              .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
              .toList();
      assertThat(leftovers)
          .as("SIGKILL skips the hook: the postmaster outlives its JVM")
          .isNotEmpty();
    } finally {
      killed.destroyForcibly();
    }

    try (LocalCloud restarted = LocalCloud.start(LocalCloudSettings.ephemeral(data))) {
      assertThat(leftovers).noneMatch(ProcessHandle::isAlive);
      try (var connection = restarted.database().getConnection();
          var statement = connection.createStatement();
          var rows = statement.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
        rows.next();
        assertThat(rows.getInt(1)).isPositive();
      }
    }
  }

  /** Runs LocalCloudMain on {@code dir} with free ports and waits until it reports it is up. */
  private static Process startInChildJvm(Path dir) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path")));
    for (String setting :
        List.of(
            LocalCloudSettings.S3_PORT_SETTING,
            LocalCloudSettings.POSTGRES_PORT_SETTING,
            LocalCloudSettings.KAFKA_PORT_SETTING,
            LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING,
            LocalCloudSettings.DYNAMODB_PORT_SETTING,
            LocalCloudSettings.STEP_FUNCTIONS_PORT_SETTING)) {
      command.add("-D" + setting + "=0");
    }
    command.addAll(List.of(LocalCloudMain.class.getName(), "--data", dir.toString()));
    Process cloud = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<Boolean> up =
        CompletableFuture.supplyAsync(
            () -> {
              BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(cloud.getInputStream(), StandardCharsets.UTF_8));
              try {
                String line;
                while ((line = out.readLine()) != null) {
                  if (line.startsWith("# local cloud up")) {
                    // Keep reading so the child never blocks on a full pipe.
                    Thread.ofVirtual()
                        .start(
                            () -> {
                              try {
                                out.lines().forEach(ignored -> {});
                              } catch (UncheckedIOException closedWhenTheChildDied) {
                                // Nothing more to read.
                              }
                            });
                    return true;
                  }
                }
                return false;
              } catch (IOException e) {
                return false;
              }
            });
    if (!up.get(180, TimeUnit.SECONDS)) {
      cloud.destroyForcibly();
      throw new AssertionError("the local cloud in the child JVM did not come up");
    }
    return cloud;
  }

  private static List<ProcessHandle> processesUnder(Path dir) {
    return ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .map(
                        cmd ->
                            cmd.contains(dir.toString())
                                && !cmd.contains(LocalCloudMain.class.getName()))
                    .orElse(false))
        .toList();
  }
}
