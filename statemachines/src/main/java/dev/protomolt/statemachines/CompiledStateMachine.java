package dev.protomolt.statemachines;

import java.util.List;
import java.util.Map;

/**
 * The compiler's output for one graph version.
 *
 * @param definition the reviewable ASL JSON (indented; the golden files), with {@code ${...}}
 *     definition substitutions left in place
 * @param compactDefinition the same definition without whitespace, for deployment
 * @param worstPath the node ids of the document path with the largest history estimate
 * @param worstPathEvents that path's worst-case history events in one execution
 */
public record CompiledStateMachine(
    String definition, String compactDefinition, List<String> worstPath, long worstPathEvents) {

  /**
   * The compact definition with every substitution filled in, for a caller that creates the state
   * machine through the Step Functions API (which, unlike CloudFormation, has no substitutions).
   *
   * @param values an ARN for each name in {@link StateMachineCompiler#SUBSTITUTIONS}
   * @throws IllegalArgumentException naming the substitution that is missing, unknown or unsafe
   */
  public String deployableDefinition(Map<String, String> values) {
    for (String key : values.keySet()) {
      if (!StateMachineCompiler.SUBSTITUTIONS.contains(key)) {
        throw new IllegalArgumentException(
            "substitution '"
                + key
                + "' is not used by compiled definitions; known: "
                + StateMachineCompiler.SUBSTITUTIONS);
      }
    }
    String result = compactDefinition;
    for (String name : StateMachineCompiler.SUBSTITUTIONS) {
      String value = values.get(name);
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(
            "substitution '"
                + name
                + "' has no value; every compiled definition needs "
                + StateMachineCompiler.SUBSTITUTIONS);
      }
      if (value.indexOf('"') >= 0 || value.indexOf('\\') >= 0 || value.contains("${")) {
        throw new IllegalArgumentException(
            "substitution '"
                + name
                + "' value '"
                + value
                + "' must be a plain ARN (no quotes, backslashes or '${')");
      }
      result = result.replace("${" + name + "}", value);
    }
    return result;
  }
}
