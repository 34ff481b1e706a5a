package dev.protomolt.cdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awscdk.assertions.Template;

/**
 * Reads IAM statements out of a synthesized template in a form tests can compare: actions as a
 * list, resources as strings in which every CloudFormation intrinsic is rendered as
 * {@code ${...}} (so {@code arn:${AWS::Partition}:states:...} reads like the ARN it becomes).
 */
public final class PolicyDocuments {

  /** One Allow or Deny statement, with the policy resource and the roles it is attached to. */
  public record Statement(
      String policyId,
      List<String> roles,
      String effect,
      List<String> actions,
      List<String> resources,
      Object condition) {}

  private PolicyDocuments() {}

  /** Every statement of every identity policy (AWS::IAM::Policy and inline role policies). */
  @SuppressWarnings("unchecked")
  public static List<Statement> identityStatements(Template template) {
    List<Statement> out = new ArrayList<>();
    template
        .findResources("AWS::IAM::Policy")
        .forEach(
            (id, resource) -> {
              Map<String, Object> props = (Map<String, Object>) resource.get("Properties");
              List<String> roles =
                  ((List<Object>) props.getOrDefault("Roles", List.of()))
                      .stream().map(PolicyDocuments::render).toList();
              addStatements(out, id, roles, (Map<String, Object>) props.get("PolicyDocument"));
            });
    template
        .findResources("AWS::IAM::Role")
        .forEach(
            (id, resource) -> {
              Map<String, Object> props = (Map<String, Object>) resource.get("Properties");
              for (Object policy : (List<Object>) props.getOrDefault("Policies", List.of())) {
                addStatements(
                    out,
                    id,
                    List.of("${" + id + "}"),
                    (Map<String, Object>) ((Map<String, Object>) policy).get("PolicyDocument"));
              }
            });
    template
        .findResources("AWS::IAM::ManagedPolicy")
        .forEach(
            (id, resource) -> {
              Map<String, Object> props = (Map<String, Object>) resource.get("Properties");
              addStatements(out, id, List.of(), (Map<String, Object>) props.get("PolicyDocument"));
            });
    return out;
  }

  /** Statements attached to the role with logical id {@code roleId}. */
  public static List<Statement> forRole(Template template, String roleId) {
    String ref = "${" + roleId + "}";
    return identityStatements(template).stream().filter(s -> s.roles().contains(ref)).toList();
  }

  @SuppressWarnings("unchecked")
  private static void addStatements(
      List<Statement> out, String id, List<String> roles, Map<String, Object> document) {
    for (Object raw : (List<Object>) document.get("Statement")) {
      Map<String, Object> s = (Map<String, Object>) raw;
      out.add(
          new Statement(
              id,
              roles,
              (String) s.get("Effect"),
              strings(s.get("Action")),
              strings(s.get("Resource")),
              s.get("Condition")));
    }
  }

  private static List<String> strings(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(PolicyDocuments::render).toList();
    }
    return List.of(render(value));
  }

  /** Renders a template value with intrinsics as readable placeholders. */
  @SuppressWarnings("unchecked")
  public static String render(Object value) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Map<?, ?> map && map.size() == 1) {
      var entry = map.entrySet().iterator().next();
      String fn = (String) entry.getKey();
      Object arg = entry.getValue();
      return switch (fn) {
        case "Ref" -> "${" + arg + "}";
        case "Fn::GetAtt" ->
            "${"
                + ((List<Object>) arg)
                    .stream().map(String::valueOf).collect(Collectors.joining("."))
                + "}";
        case "Fn::Join" -> {
          List<Object> join = (List<Object>) arg;
          yield ((List<Object>) join.get(1))
              .stream()
                  .map(PolicyDocuments::render)
                  .collect(Collectors.joining((String) join.get(0)));
        }
        case "Fn::Select" -> {
          List<Object> select = (List<Object>) arg;
          yield "${select " + select.get(0) + " of " + render(select.get(1)) + "}";
        }
        case "Fn::Split" -> {
          List<Object> split = (List<Object>) arg;
          yield "split '" + split.get(0) + "' " + render(split.get(1));
        }
        default -> "${" + fn + " " + arg + "}";
      };
    }
    return String.valueOf(value);
  }
}
