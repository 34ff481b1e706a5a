package dev.protomolt.bench.compiler;

import dev.protomolt.statemachines.CompiledStateMachine;
import dev.protomolt.statemachines.GraphCompileException;
import dev.protomolt.statemachines.StateMachineCompiler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link CompilerBenchmark} and prints each compile time with its ratio to serializing the
 * same graph's proto, measured in the same run.
 */
public final class CompilerBenchmarkRunner {

  private CompilerBenchmarkRunner() {}

  public static void main(String[] args) throws RunnerException {
    describe();
    Options options =
        new OptionsBuilder()
            .include(CompilerBenchmark.class.getName() + ".*")
            .forks(1)
            .warmupIterations(3)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(5)
            .measurementTime(TimeValue.seconds(1))
            .jvmArgsAppend("-Xmx512m", "-Dbench.compiler.golden=" + CompilerBenchmark.GOLDEN)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, Double> micros = new HashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      micros.put(name.substring(name.lastIndexOf('.') + 1), r.getPrimaryResult().getScore());
    }
    System.out.println();
    System.out.println("compiler benchmark (average time per operation, same JVM fork):");
    ratio(
        "largest golden (24 nodes, 30 edges)",
        micros.get("compileLargestGolden"),
        micros.get("serializeLargestGoldenProto"));
    ratio(
        "generated 120 nodes",
        micros.get("compileGenerated120"),
        micros.get("serializeGenerated120Proto"));
    ratio(
        "generated 200 nodes (refused: 1 MB)",
        micros.get("compileGenerated200"),
        micros.get("serializeGenerated200Proto"));
    cpuTime();
  }

  /**
   * The same pairs measured as thread CPU time in this JVM: on a shared machine wall-clock
   * averages swing with other processes' load, while CPU time spent by this thread does not.
   */
  private static void cpuTime() {
    CompilerBenchmark state = new CompilerBenchmark();
    try {
      state.load();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    System.out.println("same pairs as thread CPU time (warmed up, this JVM):");
    cpuRatio(
        "largest golden (24 nodes, 30 edges)",
        state::compileLargestGolden,
        state::serializeLargestGoldenProto);
    cpuRatio("generated 120 nodes", state::compileGenerated120, state::serializeGenerated120Proto);
    cpuRatio(
        "generated 200 nodes (refused: 1 MB)",
        state::compileGenerated200,
        state::serializeGenerated200Proto);
  }

  private static void cpuRatio(String what, Supplier<?> compile, Supplier<?> serialize) {
    double compileMicros = cpuMicros(compile, 150);
    double serializeMicros = cpuMicros(serialize, 20_000);
    System.out.printf(
        Locale.ROOT,
        "  %-38s compile %10.1f us   proto serialize %8.2f us   ratio %8.0fx%n",
        what,
        compileMicros,
        serializeMicros,
        compileMicros / serializeMicros);
  }

  private static double cpuMicros(Supplier<?> operation, int iterations) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int sink = 0;
    for (int i = 0; i < iterations; i++) {
      sink += operation.get().hashCode() & 1;
    }
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < iterations; i++) {
      sink += operation.get().hashCode() & 1;
    }
    long used = threads.getCurrentThreadCpuTime() - start;
    if (sink < 0) {
      System.out.println(sink); // keeps the results alive so the JIT cannot drop the work
    }
    return used / 1000.0 / iterations;
  }

  private static void describe() {
    CompiledStateMachine generated =
        StateMachineCompiler.compile(GeneratedGraphs.layered(120, CompilerBenchmark.SEED));
    System.out.printf(
        Locale.ROOT,
        "generated 120-node graph: %d bytes of compact ASL, worst path %d hops, %d events"
            + " estimated%n",
        generated.compactDefinition().length(),
        generated.worstPath().size(),
        generated.worstPathEvents());
    try {
      StateMachineCompiler.compile(GeneratedGraphs.layered(200, CompilerBenchmark.SEED));
      System.out.println("generated 200-node graph: compiled");
    } catch (GraphCompileException refused) {
      System.out.println("generated 200-node graph: refused, " + refused.problems());
    }
  }

  private static void ratio(String what, Double compile, Double serialize) throws RunnerException {
    if (compile == null || serialize == null) {
      throw new RunnerException("a benchmark of the pair '" + what + "' did not run");
    }
    System.out.printf(
        Locale.ROOT,
        "  %-38s compile %10.1f us   proto serialize %8.2f us   ratio %8.0fx%n",
        what,
        compile,
        serialize,
        compile / serialize);
  }
}
