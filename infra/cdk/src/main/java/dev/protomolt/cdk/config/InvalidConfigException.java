package dev.protomolt.cdk.config;

import java.util.List;
import java.util.stream.Collectors;

/** Every problem found in one configuration, reported together so one edit fixes them all. */
public final class InvalidConfigException extends RuntimeException {

  private final transient List<ConfigProblem> problems;

  public InvalidConfigException(String source, List<ConfigProblem> problems) {
    super(
        source
            + " is invalid:\n"
            + problems.stream().map(p -> "  - " + p).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<ConfigProblem> problems() {
    return problems;
  }
}
