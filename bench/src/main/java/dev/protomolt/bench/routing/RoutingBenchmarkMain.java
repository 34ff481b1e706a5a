package dev.protomolt.bench.routing;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link RoutingBenchmark} and prints ns per routing decision, ns per compiled CEL
 * evaluation, and their ratio. Both figures come from the same run on the same machine.
 */
public final class RoutingBenchmarkMain {

  private RoutingBenchmarkMain() {}

  public static void main(String[] args) throws RunnerException {
    Options options = new OptionsBuilder().include(RoutingBenchmark.class.getSimpleName()).build();
    Collection<RunResult> results = new Runner(options).run();
    double route = score(results, "routeFiveEdges");
    double cel = score(results, "oneCompiledCelEvaluation");
    double five = score(results, "fiveCompiledCelEvaluations");
    System.out.printf("%nrouting decision (5 conditional edges): %.1f ns%n", route);
    System.out.printf("one compiled CEL evaluation (baseline): %.1f ns%n", cel);
    System.out.printf(
        "the same five conditions evaluated directly: %.1f ns (router overhead %.1f ns)%n",
        five, route - five);
    System.out.printf(
        "ratio: %.2fx the cost of one evaluation (%.2f evaluations' worth per edge)%n",
        route / cel, route / cel / RoutingBenchmark.CONDITIONS.length);
  }

  private static double score(Collection<RunResult> results, String method) {
    return results.stream()
        .filter(r -> r.getParams().getBenchmark().endsWith("." + method))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no result for " + method))
        .getPrimaryResult()
        .getScore();
  }
}
