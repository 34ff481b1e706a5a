package dev.protomolt.core.cel;

import java.util.List;
import java.util.stream.Collectors;

/** An expression that does not compile, with every problem and its position. */
public final class CelCompilationException extends RuntimeException {

  private final String key;
  private final String expression;
  private final List<CelProblem> problems;

  public CelCompilationException(String key, String expression, List<CelProblem> problems) {
    super(
        "CEL expression "
            + key
            + " does not compile: '"
            + expression
            + "' "
            + problems.stream().map(CelProblem::toString).collect(Collectors.joining("; ")));
    this.key = key;
    this.expression = expression;
    this.problems = List.copyOf(problems);
  }

  public String key() {
    return key;
  }

  public String expression() {
    return expression;
  }

  public List<CelProblem> problems() {
    return problems;
  }
}
