package dev.protomolt.localstack.iam;

/**
 * What evaluation concluded, and the statement that decided it (null for an implicit deny: no
 * statement allowed the request).
 */
public record AccessDecision(Outcome outcome, AccessRequest request, Statement decidingStatement) {

  public enum Outcome {
    ALLOWED,
    /** A Deny statement applies; it wins over every Allow. */
    EXPLICITLY_DENIED,
    /** No statement allows the request: IAM's default. */
    IMPLICITLY_DENIED
  }

  public boolean allowed() {
    return outcome == Outcome.ALLOWED;
  }

  /** The reason in the words AWS uses at the end of an AccessDenied message. */
  public String reason() {
    return switch (outcome) {
      case ALLOWED -> "allowed by " + decidingStatement.where();
      case EXPLICITLY_DENIED ->
          "with an explicit deny in an identity-based policy (" + decidingStatement.where() + ")";
      case IMPLICITLY_DENIED ->
          "because no identity-based policy allows the " + request.action() + " action";
    };
  }
}
