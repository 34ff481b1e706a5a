package dev.protomolt.localstack.iam;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One {@code operator: {key: values}} entry of a statement's {@code Condition} block, for the
 * operators and keys the local cloud can evaluate as AWS does (decision 1581). A clause holds when
 * the request's value for {@code key} satisfies the operator against any of {@code values}; the
 * negated operators hold when it satisfies none. A key the request does not carry makes a
 * positive operator false and a negated one true, and an {@code ...IfExists} operator true, as in
 * AWS.
 */
public record ConditionClause(
    Operator operator, boolean ifExists, String key, List<String> values) {

  /** The condition keys the local cloud supplies with its requests; any other is refused. */
  static final Set<String> SUPPORTED_KEYS =
      Set.of("iam:passedtoservice", "s3:prefix", "aws:principalarn");

  public enum Operator {
    STRING_EQUALS("StringEquals", false),
    STRING_NOT_EQUALS("StringNotEquals", true),
    STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", false),
    STRING_NOT_EQUALS_IGNORE_CASE("StringNotEqualsIgnoreCase", true),
    STRING_LIKE("StringLike", false),
    STRING_NOT_LIKE("StringNotLike", true),
    ARN_EQUALS("ArnEquals", false),
    ARN_NOT_EQUALS("ArnNotEquals", true),
    ARN_LIKE("ArnLike", false),
    ARN_NOT_LIKE("ArnNotLike", true),
    BOOL("Bool", false),
    NULL("Null", false);

    final String policyName;
    final boolean negated;

    Operator(String policyName, boolean negated) {
      this.policyName = policyName;
      this.negated = negated;
    }

    static Operator named(String name) {
      for (Operator operator : values()) {
        if (operator.policyName.equals(name)) {
          return operator;
        }
      }
      return null;
    }

    boolean test(String pattern, String actual) {
      return switch (this) {
        case STRING_EQUALS, STRING_NOT_EQUALS -> pattern.equals(actual);
        case STRING_EQUALS_IGNORE_CASE, STRING_NOT_EQUALS_IGNORE_CASE ->
            pattern.equalsIgnoreCase(actual);
        case STRING_LIKE, STRING_NOT_LIKE -> WildcardPattern.matchesString(pattern, actual);
        // ArnEquals and ArnLike behave the same in AWS: both take wildcards per ARN segment.
        case ARN_EQUALS, ARN_NOT_EQUALS, ARN_LIKE, ARN_NOT_LIKE ->
            WildcardPattern.matchesArn(pattern, actual);
        case BOOL -> pattern.equalsIgnoreCase(actual);
        case NULL -> throw new IllegalStateException("Null is decided by presence alone");
      };
    }
  }

  boolean holds(AccessRequest request) {
    String actual = request.contextValue(key);
    if (operator == Operator.NULL) {
      // "Null": "true" asks for the key to be absent, "false" for it to be present.
      boolean wantAbsent = values.stream().anyMatch(v -> v.equalsIgnoreCase("true"));
      return wantAbsent == (actual == null);
    }
    if (actual == null) {
      return ifExists || operator.negated;
    }
    boolean anyMatches = values.stream().anyMatch(v -> operator.test(v, actual));
    return operator.negated ? !anyMatches : anyMatches;
  }

  static String normalisedKey(String key) {
    return key.toLowerCase(Locale.ROOT);
  }
}
