package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cloud whose JVM is told to terminate (SIGTERM, as Ctrl-C or a service manager does)
 * stops its child processes through its shutdown hook: nothing of it is left running.
 */
class LocalCloudShutdownHookTest {

  @TempDir
  Path data;

  @Test
  void terminatingTheJvmStopsPostgresAndDynalite() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
    for (String setting : List.of(LocalCloudSettings.S3_PORT_SETTING,
        LocalCloudSettings.POSTGRES_PORT_SETTING, LocalCloudSettings.KAFKA_PORT_SETTING,
        LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING, LocalCloudSettings.DYNAMODB_PORT_SETTING,
        LocalCloudSettings.STEP_FUNCTIONS_PORT_SETTING)) {
      command.add("-D" + setting + "=0");
    }
    command.addAll(List.of(LocalCloudMain.class.getName(), "--data", data.toString()));
    Process cloud = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      CompletableFuture<Boolean> up = CompletableFuture.supplyAsync(() -> {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(cloud.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = out.readLine()) != null) {
            if (line.startsWith("# local cloud up")) {
              Thread.ofVirtual().start(() -> out.lines().forEach(ignored -> { }));
              return true;
            }
          }
          return false;
        } catch (java.io.IOException e) {
          return false;
        }
      });
      assertThat(up.get(180, TimeUnit.SECONDS)).as("the local cloud came up").isTrue();
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

  private static List<ProcessHandle> processesUnder(Path dir) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(cmd -> cmd.contains(dir.toString())
            && !cmd.contains(LocalCloudMain.class.getName())).orElse(false))
        .toList();
  }
}
