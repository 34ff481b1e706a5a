package dev.protomolt.localstack.template;

/**
 * One reason a template cannot be deployed locally: the resource (logical id and type), the field
 * within it and the rule it breaks.
 */
public record TemplateProblem(String logicalId, String type, String field, String rule) {

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(logicalId);
    if (type != null) {
      out.append(" (").append(type).append(')');
    }
    if (field != null && !field.isEmpty()) {
      out.append(' ').append(field);
    }
    return out.append(": ").append(rule).toString();
  }
}
