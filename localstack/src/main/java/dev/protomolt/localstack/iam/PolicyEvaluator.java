package dev.protomolt.localstack.iam;

import java.util.List;

/**
 * AWS's evaluation logic for identity-based policies within one account: a request is denied by
 * default, allowed when some statement allows it, and denied whenever any statement denies it,
 * whatever allows it. Resource-based policies, permission boundaries, session policies and SCPs
 * are not part of a template's function roles and are not evaluated.
 */
public final class PolicyEvaluator {

  private PolicyEvaluator() {}

  public static AccessDecision evaluate(List<PolicyDocument> policies, AccessRequest request) {
    Statement allowing = null;
    for (PolicyDocument policy : policies) {
      for (Statement statement : policy.statements()) {
        if (!statement.appliesTo(request)) {
          continue;
        }
        if (statement.effect() == Effect.DENY) {
          return new AccessDecision(AccessDecision.Outcome.EXPLICITLY_DENIED, request, statement);
        }
        if (allowing == null) {
          allowing = statement;
        }
      }
    }
    return allowing == null
        ? new AccessDecision(AccessDecision.Outcome.IMPLICITLY_DENIED, request, null)
        : new AccessDecision(AccessDecision.Outcome.ALLOWED, request, allowing);
  }
}
