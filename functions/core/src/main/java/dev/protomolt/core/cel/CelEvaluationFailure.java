package dev.protomolt.core.cel;

/**
 * A compiled expression failed while evaluating (a missing map key, a bad index, a non-bool where
 * a bool was needed). It names the expression's key so the recorded outcome says which edge,
 * filter or mapping failed and why.
 */
public final class CelEvaluationFailure extends RuntimeException {

  private final String key;
  private final String expression;

  public CelEvaluationFailure(String key, String expression, String reason, Throwable cause) {
    super("CEL expression " + key + " ('" + expression + "') failed: " + reason, cause);
    this.key = key;
    this.expression = expression;
  }

  public String key() {
    return key;
  }

  public String expression() {
    return expression;
  }
}
