package dev.protomolt.localstack.template;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The template cannot be deployed locally. Raised before anything is started, listing every problem
 * found, each naming the resource's logical id.
 */
public final class InvalidTemplateException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<TemplateProblem> problems;

  public InvalidTemplateException(List<TemplateProblem> problems) {
    super(
        "the template cannot be deployed locally ("
            + problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + "):\n"
            + problems.stream().map(p -> "  - " + p).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<TemplateProblem> problems() {
    return problems;
  }
}
