package dev.protomolt.localstack.iam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An identity-based policy document as CloudFormation carries it once intrinsics are resolved
 * (the {@code PolicyDocument} of an {@code AWS::IAM::Policy} or of a role's inline {@code
 * Policies}). {@link #parse} accepts {@code Statement} as one object or an array, and {@code
 * Action}/{@code NotAction} and {@code Resource}/{@code NotResource} as a string or an array;
 * everything it cannot evaluate as AWS would is refused with an {@link InvalidPolicyException}
 * naming the statement, the field and the rule, never skipped.
 */
public record PolicyDocument(String source, List<Statement> statements) {

  private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");
  private static final Set<String> STATEMENT_FIELDS =
      Set.of("Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition");
  // service:pattern, the service prefix being what AWS's service authorization reference lists.
  private static final Pattern ACTION = Pattern.compile("[a-zA-Z0-9-]+:[a-zA-Z0-9*?]+");

  public PolicyDocument {
    statements = List.copyOf(statements);
  }

  /**
   * Parses a resolved policy document.
   *
   * @param source names the document in errors and log lines, e.g. {@code "IntakeRole
   *     DefaultPolicy"}
   */
  public static PolicyDocument parse(JsonNode document, String source) {
    if (document == null || !document.isObject()) {
      throw new InvalidPolicyException(source + ": PolicyDocument must be a JSON object");
    }
    JsonNode version = document.get("Version");
    if (version != null && !(version.isTextual() && VERSIONS.contains(version.asText()))) {
      throw new InvalidPolicyException(
          source + ": Version must be \"2012-10-17\" or \"2008-10-17\", was " + version);
    }
    JsonNode statementNode = document.get("Statement");
    if (statementNode == null) {
      throw new InvalidPolicyException(source + ": Statement is required");
    }
    List<JsonNode> raw = new ArrayList<>();
    if (statementNode.isArray()) {
      statementNode.forEach(raw::add);
    } else if (statementNode.isObject()) {
      raw.add(statementNode);
    } else {
      throw new InvalidPolicyException(
          source + ": Statement must be an object or an array of objects");
    }
    List<Statement> statements = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      statements.add(statement(raw.get(i), source + " Statement[" + i + "]"));
    }
    return new PolicyDocument(source, statements);
  }

  private static Statement statement(JsonNode node, String where) {
    if (!node.isObject()) {
      throw new InvalidPolicyException(where + ": a statement must be a JSON object");
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = field.getKey();
      if (name.equals("Principal") || name.equals("NotPrincipal")) {
        throw new InvalidPolicyException(
            where + ": " + name + " belongs in resource-based policies, not an identity-based one");
      }
      if (!STATEMENT_FIELDS.contains(name)) {
        throw new InvalidPolicyException(
            where + ": unknown field " + name + " (allowed: " + STATEMENT_FIELDS + ")");
      }
    }
    String sid = node.has("Sid") ? node.get("Sid").asText() : null;
    String named = sid == null || sid.isEmpty() ? where : where + " (Sid " + sid + ")";
    Effect effect =
        switch (node.path("Effect").asText("")) {
          case "Allow" -> Effect.ALLOW;
          case "Deny" -> Effect.DENY;
          default ->
              throw new InvalidPolicyException(
                  where + ": Effect must be \"Allow\" or \"Deny\", was " + node.get("Effect"));
        };
    boolean notAction = exactlyOne(node, "Action", "NotAction", where);
    List<String> actions =
        strings(
            node.get(notAction ? "NotAction" : "Action"),
            where,
            notAction ? "NotAction" : "Action");
    for (String action : actions) {
      if (!action.equals("*") && !ACTION.matcher(action).matches()) {
        throw new InvalidPolicyException(
            where
                + ": "
                + (notAction ? "NotAction" : "Action")
                + " '"
                + action
                + "' must be '*' or service:action (wildcards * and ? allowed in the action)");
      }
    }
    boolean notResource = exactlyOne(node, "Resource", "NotResource", where);
    String resourceField = notResource ? "NotResource" : "Resource";
    List<String> resources = strings(node.get(resourceField), where, resourceField);
    for (String resource : resources) {
      checkResource(resource, where, resourceField);
    }
    List<ConditionClause> conditions = conditions(node.get("Condition"), where);
    return new Statement(named, effect, actions, notAction, resources, notResource, conditions);
  }

  private static boolean exactlyOne(JsonNode node, String plain, String negated, String where) {
    boolean hasPlain = node.has(plain);
    boolean hasNegated = node.has(negated);
    if (hasPlain == hasNegated) {
      throw new InvalidPolicyException(
          where + ": exactly one of " + plain + " and " + negated + " is required");
    }
    return hasNegated;
  }

  private static List<String> strings(JsonNode node, String where, String field) {
    List<String> values = new ArrayList<>();
    if (node.isTextual()) {
      values.add(node.asText());
    } else if (node.isArray() && !node.isEmpty()) {
      for (JsonNode element : node) {
        if (!element.isTextual()) {
          throw new InvalidPolicyException(
              where
                  + ": "
                  + field
                  + " must hold strings only, found "
                  + element
                  + " (is an intrinsic left unresolved?)");
        }
        values.add(element.asText());
      }
    } else {
      throw new InvalidPolicyException(
          where
              + ": "
              + field
              + " must be a string or a non-empty array of strings, was "
              + node
              + (node.isObject() ? " (is an intrinsic left unresolved?)" : ""));
    }
    return values;
  }

  private static void checkResource(String resource, String where, String field) {
    if (resource.contains("${")) {
      throw new InvalidPolicyException(
          where
              + ": "
              + field
              + " '"
              + resource
              + "' uses a policy variable, which the local cloud does not evaluate");
    }
    if (resource.equals("*")) {
      return;
    }
    String[] parts = resource.split(":", 6);
    if (parts.length < 6 || !parts[0].equals("arn") || parts[2].isEmpty()) {
      throw new InvalidPolicyException(
          where
              + ": "
              + field
              + " '"
              + resource
              + "' must be '*' or an ARN"
              + " (arn:partition:service:region:account:resource)");
    }
    if (parts[2].contains("*") || parts[2].contains("?")) {
      throw new InvalidPolicyException(
          where
              + ": "
              + field
              + " '"
              + resource
              + "' has a wildcard in its service segment, which IAM does not allow");
    }
  }

  private static List<ConditionClause> conditions(JsonNode node, String where) {
    List<ConditionClause> clauses = new ArrayList<>();
    if (node == null) {
      return clauses;
    }
    if (!node.isObject()) {
      throw new InvalidPolicyException(where + ": Condition must be an object");
    }
    for (Map.Entry<String, JsonNode> op : node.properties()) {
      String name = op.getKey();
      if (name.startsWith("ForAnyValue:") || name.startsWith("ForAllValues:")) {
        throw new InvalidPolicyException(
            where
                + ": Condition operator "
                + name
                + " is a set operator for multivalued keys, which the local cloud does not"
                + " evaluate");
      }
      boolean ifExists = name.endsWith("IfExists");
      String base = ifExists ? name.substring(0, name.length() - "IfExists".length()) : name;
      ConditionClause.Operator operator = ConditionClause.Operator.named(base);
      if (operator == null || (ifExists && operator == ConditionClause.Operator.NULL)) {
        throw new InvalidPolicyException(
            where
                + ": Condition operator "
                + name
                + " is not evaluated by the local cloud (supported: the String*, Arn*, Bool and"
                + " Null operators, with IfExists)");
      }
      if (!op.getValue().isObject() || op.getValue().isEmpty()) {
        throw new InvalidPolicyException(
            where + ": Condition " + name + " must map condition keys to values");
      }
      for (Map.Entry<String, JsonNode> key : op.getValue().properties()) {
        String normalised = ConditionClause.normalisedKey(key.getKey());
        if (!ConditionClause.SUPPORTED_KEYS.contains(normalised)) {
          throw new InvalidPolicyException(
              where
                  + ": Condition key "
                  + key.getKey()
                  + " is not supplied by the local cloud (supported: iam:PassedToService,"
                  + " s3:prefix, aws:PrincipalArn); evaluating it as absent could differ from AWS");
        }
        List<String> values = new ArrayList<>();
        JsonNode value = key.getValue();
        if (value.isArray()) {
          value.forEach(v -> values.add(v.asText()));
        } else if (value.isValueNode()) {
          values.add(value.asText());
        } else {
          throw new InvalidPolicyException(
              where + ": Condition " + name + " " + key.getKey() + " must be a value or an array");
        }
        clauses.add(new ConditionClause(operator, ifExists, normalised, values));
      }
    }
    return clauses;
  }
}
