package dev.protomolt.core.identity;

/**
 * A document identity that cannot be stored: one of its coordinates is blank or breaks a rule. The
 * message names the field and the rule, so a gRPC door can surface it as INVALID_ARGUMENT as is.
 */
public final class InvalidIdentityException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final String rule;

  public InvalidIdentityException(String field, String rule) {
    super(field + " " + rule);
    this.field = field;
    this.rule = rule;
  }

  /** The offending coordinate, spelled as on the wire (e.g. {@code graph_id}). */
  public String field() {
    return field;
  }

  /** The rule it broke, in words. */
  public String rule() {
    return rule;
  }
}
