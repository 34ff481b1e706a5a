package dev.protomolt.bench.localcloud;

import dev.protomolt.cli.LocalPlatform;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.cloud.LocalPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Start-up time and memory of the whole local cloud, each next to a baseline measured in the same
 * run: the time to start embedded PostgreSQL alone (the one component every run needs) and the
 * memory of this JVM before anything started; then what {@code protomolt up} starts (the cloud
 * with the synthesized template deployed and the sample modules), next to the bare cloud. Goals (ARCHITECTURE §7, issue 7): a cold start
 * under 15 s and the whole cloud under 1.5 GiB.
 *
 * <p>Run: {@code ./mvnw -B -q -pl bench -am verify -DskipTests -Pbench-localcloud}.
 */
public final class LocalCloudStartupBench {

  private static final double GOAL_SECONDS = 15.0;
  private static final long GOAL_BYTES = 1536L * 1024 * 1024;

  private LocalCloudStartupBench() {}

  public static void main(String[] args) throws Exception {
    Path root = Files.createTempDirectory("protomolt-bench-localcloud");
    try {
      run(root);
    } finally {
      deleteRecursively(root);
    }
  }

  private static void run(Path root) {
    System.gc();
    long idleJvm = ProcessMemory.pssBytes(List.of(ProcessHandle.current()));

    // Baseline: PostgreSQL alone, cold (initdb + start + migrations), then stopped.
    long t0 = System.nanoTime();
    LocalPostgres postgresAlone = LocalPostgres.start(root.resolve("baseline/postgres/data"), 0);
    double postgresSeconds = seconds(t0);
    postgresAlone.close();

    // The whole cloud, cold: empty data folder, every store created and formatted.
    LocalCloudSettings settings = LocalCloudSettings.ephemeral(root.resolve("cloud"));
    double cpuBefore = cpuSeconds(List.of(ProcessHandle.current()));
    long t1 = System.nanoTime();
    LocalCloud cloud = LocalCloud.start(settings);
    double coldSeconds = seconds(t1);
    double coldCpu =
        cpuSeconds(cloud.childProcesses())
            + cpuSeconds(List.of(ProcessHandle.current()))
            - cpuBefore;
    Map<String, Duration> coldParts = cloud.startTimes();
    System.gc();
    List<ProcessHandle> processes = new ArrayList<>();
    processes.add(ProcessHandle.current());
    processes.addAll(cloud.childProcesses());
    long cloudBytes = ProcessMemory.pssBytes(processes);
    cloud.close();

    // The whole cloud, warm: the same folder again, as every later `protomolt up` finds it.
    long t2 = System.nanoTime();
    LocalCloud warm = LocalCloud.start(settings);
    double warmSeconds = seconds(t2);
    warm.close();

    // What `protomolt up` starts: the cloud, the synthesized template deployed onto it (functions,
    // gateway task, triggers, tables, topics, migrations) and the four sample modules.
    LocalCloudSettings platformSettings = LocalCloudSettings.ephemeral(root.resolve("platform"));
    long t3 = System.nanoTime();
    LocalPlatform platform = LocalPlatform.start(platformSettings, 0);
    double platformColdSeconds = seconds(t3);
    System.gc();
    List<ProcessHandle> platformProcesses = new ArrayList<>();
    platformProcesses.add(ProcessHandle.current());
    platformProcesses.addAll(ProcessHandle.current().children().toList());
    long platformBytes = ProcessMemory.pssBytes(platformProcesses);
    platform.close();
    long t4 = System.nanoTime();
    LocalPlatform.start(platformSettings, 0).close();
    double platformWarmSeconds = seconds(t4);

    System.out.println(
        "local cloud start-up and memory ("
            + Runtime.getRuntime().availableProcessors()
            + " cores, max heap "
            + ProcessMemory.mib(Runtime.getRuntime().maxMemory())
            + ", load average "
            + loadAverage()
            + ")");
    System.out.printf("  baseline: PostgreSQL alone, cold start        %6.2f s%n", postgresSeconds);
    System.out.printf(
        "  whole local cloud, cold start                 %6.2f s  (%.2fx baseline;"
            + " goal < %.0f s: %s)%n",
        coldSeconds,
        coldSeconds / postgresSeconds,
        GOAL_SECONDS,
        coldSeconds < GOAL_SECONDS ? "met" : "MISSED");
    System.out.printf(
        "    CPU time it used (this JVM + live children)   %6.2f s  (the wall time on"
            + " %d idle cores is at least %.2f s)%n",
        coldCpu,
        Runtime.getRuntime().availableProcessors(),
        coldCpu / Runtime.getRuntime().availableProcessors());
    System.out.println(
        "    per component (the servers start in parallel, Step Functions after" + " them):");
    coldParts.forEach(
        (component, took) ->
            System.out.printf("      %-43s %6.2f s%n", component, took.toNanos() / 1e9));
    System.out.printf(
        "  whole local cloud, warm restart               %6.2f s  (%.2fx baseline)%n",
        warmSeconds, warmSeconds / postgresSeconds);
    System.out.printf(
        "  baseline: this JVM idle, PSS                  %8s%n", ProcessMemory.mib(idleJvm));
    System.out.printf(
        "  whole local cloud, PSS (JVM + child processes) %7s  (%.2fx baseline;"
            + " goal < 1.5 GiB: %s)%n",
        ProcessMemory.mib(cloudBytes),
        (double) cloudBytes / idleJvm,
        cloudBytes < GOAL_BYTES ? "met" : "MISSED");
    System.out.printf(
        "  protomolt up (template deployed), cold start  %6.2f s  (%.2fx the bare cloud's)%n",
        platformColdSeconds, platformColdSeconds / coldSeconds);
    System.out.printf(
        "  protomolt up (template deployed), warm start  %6.2f s  (%.2fx the bare cloud's)%n",
        platformWarmSeconds, platformWarmSeconds / warmSeconds);
    System.out.printf(
        "  protomolt up, PSS (JVM + child processes)      %7s  (%.2fx the bare cloud's;"
            + " goal < 1.5 GiB: %s)%n",
        ProcessMemory.mib(platformBytes),
        (double) platformBytes / cloudBytes,
        platformBytes < GOAL_BYTES ? "met" : "MISSED");
  }

  /**
   * CPU seconds used so far by {@code processes}; unlike wall time it hardly depends on what else
   * the machine is doing. Processes that already exited (initdb) are not counted.
   */
  private static double cpuSeconds(List<ProcessHandle> processes) {
    return processes.stream()
        .mapToDouble(p -> p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0))
        .sum();
  }

  /** Other work on the machine slows every figure; the load average says how much there was. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
