package dev.protomolt.localstack.iam;

import java.util.List;

/**
 * One statement of an identity-based policy, parsed: its effect, the action patterns (or, with
 * {@code notAction}, the actions it excludes), the resource patterns (or, with {@code
 * notResource}, those it excludes) and the condition clauses, all of which must hold.
 *
 * @param where where the statement came from, for log lines and errors ("intake role policy
 *     Statement[2]")
 */
public record Statement(
    String where,
    Effect effect,
    List<String> actions,
    boolean notAction,
    List<String> resources,
    boolean notResource,
    List<ConditionClause> conditions) {

  public Statement {
    actions = List.copyOf(actions);
    resources = List.copyOf(resources);
    conditions = List.copyOf(conditions);
  }

  /** Whether this statement applies to the request (what it then does is its {@link #effect}). */
  public boolean appliesTo(AccessRequest request) {
    boolean actionListed =
        actions.stream().anyMatch(p -> WildcardPattern.matchesAction(p, request.action()));
    if (actionListed == notAction) {
      return false;
    }
    boolean resourceListed =
        resources.stream().anyMatch(p -> WildcardPattern.matchesArn(p, request.resource()));
    if (resourceListed == notResource) {
      return false;
    }
    return conditions.stream().allMatch(c -> c.holds(request));
  }
}
