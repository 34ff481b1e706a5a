package dev.protomolt.statemachines;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The graph cannot be compiled. Carries every problem found, not just the first, so one round
 * trip tells the author everything to fix.
 */
public final class GraphCompileException extends RuntimeException {

  private final transient List<CompileProblem> problems;

  GraphCompileException(String graph, List<CompileProblem> problems) {
    super(
        "graph "
            + graph
            + " cannot be compiled to a state machine ("
            + problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + "):\n"
            + problems.stream().map(p -> "  - " + p).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<CompileProblem> problems() {
    return problems;
  }
}
