package dev.protomolt.core.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.Program;
import java.util.Map;

/** One planned program, keyed by where it lives in the graph ({@code edge:}, {@code node:}, {@code mapping:}). */
public final class CompiledExpression {

  private final String key;
  private final String expression;
  private final Program program;

  CompiledExpression(String key, String expression, Program program) {
    this.key = key;
    this.expression = expression;
    this.program = program;
  }

  public String key() {
    return key;
  }

  public String expression() {
    return expression;
  }

  /** Evaluates to a value; failures name the key and the expression. */
  public Object evaluate(CelInput input) {
    return evaluate(input.activation());
  }

  /** Evaluates against a prepared activation (lets a caller build it once for many programs). */
  public Object evaluate(Map<String, ?> activation) {
    try {
      return program.eval(activation);
    } catch (CelEvaluationException e) {
      throw new CelEvaluationFailure(key, expression, e.getMessage(), e);
    }
  }

  /** Evaluates a predicate; a non-bool result is a failure, never silently false. */
  public boolean test(Map<String, ?> activation) {
    Object value = evaluate(activation);
    if (value instanceof Boolean b) {
      return b;
    }
    throw new CelEvaluationFailure(
        key,
        expression,
        "expected bool but got " + (value == null ? "null" : value.getClass().getSimpleName()),
        null);
  }
}
