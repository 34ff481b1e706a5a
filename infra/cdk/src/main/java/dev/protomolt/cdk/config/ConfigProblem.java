package dev.protomolt.cdk.config;

/**
 * One thing wrong with an environment's configuration: the field (as a JSON path) and the rule it
 * breaks, so the message points at the exact line to fix.
 */
public record ConfigProblem(String field, String rule) {

  @Override
  public String toString() {
    return field + ": " + rule;
  }
}
