package dev.protomolt.lambda.console;

import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.proto.config.v1.ValidationViolation;
import java.util.Optional;

/**
 * A console API request that is refused: the HTTP status, the request field at fault and the rule
 * it broke. The handler turns it into {@code {"field":...,"rule":...}} with that status, so the
 * browser can show the rule next to the field; nothing was changed.
 */
public final class ConsoleRefusal extends RuntimeException {

  private final int status;
  private final String field;
  private final String rule;
  private final transient ValidationResult violations;

  public ConsoleRefusal(int status, String field, String rule) {
    this(status, field, rule, null);
  }

  private ConsoleRefusal(int status, String field, String rule, ValidationResult violations) {
    super(field + " " + rule);
    this.status = status;
    this.field = field;
    this.rule = rule;
    this.violations = violations;
  }

  /**
   * A 400 for a graph that failed validation: the first violation names the field (its node or
   * edge) and the rule, and the whole result goes along so every violation can be shown.
   */
  public static ConsoleRefusal invalidGraph(ValidationResult result) {
    ValidationViolation first = result.getViolations(0);
    String at =
        !first.getEdgeId().isEmpty()
            ? "graph.edges[" + first.getEdgeId() + "]"
            : !first.getNodeId().isEmpty() ? "graph.nodes[" + first.getNodeId() + "]" : "graph";
    String field = first.getField().isEmpty() ? at : at + "." + first.getField();
    return new ConsoleRefusal(400, field, first.getRule() + ": " + first.getMessage(), result);
  }

  /** The validation result a refused graph carried, when it was one. */
  public Optional<ValidationResult> violations() {
    return Optional.ofNullable(violations);
  }

  /** A 400: the request itself is wrong. */
  public static ConsoleRefusal badRequest(String field, String rule) {
    return new ConsoleRefusal(400, field, rule);
  }

  public int status() {
    return status;
  }

  public String field() {
    return field;
  }

  public String rule() {
    return rule;
  }
}
