package dev.protomolt.bench;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link PartCodecBenchmark} with settings sized for a small shared machine (one fork, one
 * thread, short iterations) and prints, per document shape, the codec's and the baseline's
 * throughput in MB/s of document bytes and their ratio. Pass {@code -Dbench.quick=true} for a
 * smoke run.
 */
public final class PartCodecBenchmarkMain {
  private PartCodecBenchmarkMain() {}

  public static void main(String[] args) throws RunnerException {
    boolean quick = Boolean.getBoolean("bench.quick");
    Options options =
        new OptionsBuilder()
            .include(PartCodecBenchmark.class.getName())
            .forks(1)
            .threads(1)
            .warmupIterations(quick ? 1 : 3)
            .warmupTime(TimeValue.seconds(quick ? 1 : 2))
            .measurementIterations(quick ? 2 : 5)
            .measurementTime(TimeValue.seconds(quick ? 1 : 2))
            .jvmArgsAppend("-Xmx2g", "-XX:+UseParallelGC")
            .build();
    Collection<RunResult> results = new Runner(options).run();

    Map<String, double[]> byShape = new TreeMap<>();
    for (RunResult result : results) {
      String shape = result.getParams().getParam("shape");
      String method = result.getParams().getBenchmark();
      double opsPerSecond = result.getPrimaryResult().getScore();
      double[] row = byShape.computeIfAbsent(shape, s -> new double[3]);
      row[method.endsWith("baselineParseSerialize") ? 0 : method.endsWith("sha256Floor") ? 2 : 1] =
          opsPerSecond;
    }
    System.out.println();
    System.out.println(
        "| shape | document bytes | baseline MB/s | codec MB/s | codec time / baseline time"
            + " | SHA-256 x2 floor MB/s |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (Map.Entry<String, double[]> row : byShape.entrySet()) {
      long bytes = DocumentShape.valueOf(row.getKey()).bytes().length;
      double baseline = row.getValue()[0] * bytes / 1e6;
      double codec = row.getValue()[1] * bytes / 1e6;
      double floor = row.getValue()[2] * bytes / 1e6;
      System.out.println(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %.0f | %.0f | %.2fx | %.0f |",
              row.getKey(),
              bytes,
              baseline,
              codec,
              baseline / codec,
              floor));
    }
  }
}
