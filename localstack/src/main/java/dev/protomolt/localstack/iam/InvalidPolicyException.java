package dev.protomolt.localstack.iam;

/**
 * A policy document the local cloud cannot evaluate the way AWS would: malformed, or using a
 * construct outside the supported subset. The message names where in the document (its source,
 * the statement index and the field) and the rule that was broken.
 */
public final class InvalidPolicyException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public InvalidPolicyException(String message) {
    super(message);
  }
}
