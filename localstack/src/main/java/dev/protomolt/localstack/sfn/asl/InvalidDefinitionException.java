package dev.protomolt.localstack.sfn.asl;

import java.util.List;

/** A definition outside the supported subset or invalid ASL; carries every problem found. */
public final class InvalidDefinitionException extends RuntimeException {

  private final List<String> problems;

  public InvalidDefinitionException(List<String> problems) {
    super("Invalid State Machine Definition: '" + String.join(", ", problems) + "'");
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
