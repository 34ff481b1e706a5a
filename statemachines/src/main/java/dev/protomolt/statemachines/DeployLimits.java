package dev.protomolt.statemachines;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Limits that decide whether a definition can be deployed at all, checked on the finished output:
 * its size in a Step Functions request, and that {@code ${...}} appears only as one of our
 * definition substitutions (CloudFormation would try to substitute any other occurrence, e.g. in a
 * node id or a CEL condition quoted in a Comment).
 */
final class DeployLimits {

  /** Step Functions refuses a request over 1 MB; the definition is one string field of it. */
  static final int MAX_REQUEST_BYTES = 1_048_576;

  /** Left for the rest of a CreateStateMachine/UpdateStateMachine request (name, role, tags). */
  static final int REQUEST_HEADROOM_BYTES = 16_384;

  static final int MAX_DEFINITION_REQUEST_BYTES = MAX_REQUEST_BYTES - REQUEST_HEADROOM_BYTES;

  /** Longer than any Lambda function ARN (140) or state machine version ARN we generate. */
  static final int WORST_CASE_ARN_LENGTH = 160;

  private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{([^}]*)}?");

  private DeployLimits() {}

  static void check(
      Map<String, ?> definition, String compact, int nodeCount, List<CompileProblem> problems) {
    substitutions("definition", definition, problems);
    long size = requestBytes(compact);
    if (size > MAX_DEFINITION_REQUEST_BYTES) {
      long perNode = Math.max(1, size / Math.max(1, nodeCount));
      problems.add(
          new CompileProblem(
              "definition",
              "definition-size",
              "the compiled definition takes "
                  + size
                  + " bytes in a Step Functions request (compact, every ARN filled in), over the "
                  + MAX_DEFINITION_REQUEST_BYTES
                  + " bytes that fit the 1 MB request limit; at about "
                  + perNode
                  + " bytes per node this graph needs to stay under about "
                  + (MAX_DEFINITION_REQUEST_BYTES / perNode)
                  + " nodes, so split it into graphs joined through a sink and an intake"));
    }
  }

  /**
   * Bytes the definition takes as a JSON string inside the request: UTF-8 length, one extra byte
   * per escaped quote or backslash, the two quotes, and every substitution at worst-case length.
   */
  static long requestBytes(String compact) {
    long bytes = 2;
    for (int i = 0; i < compact.length(); i++) {
      char c = compact.charAt(i);
      if (c == '"' || c == '\\') {
        bytes += 2;
      } else if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800 || Character.isSurrogate(c)) {
        bytes += 2; // a surrogate pair is 4 bytes in UTF-8, counted 2 per half
      } else {
        bytes += 3;
      }
    }
    for (String name : StateMachineCompiler.SUBSTITUTIONS) {
      String token = "${" + name + "}";
      int count = 0;
      for (int at = compact.indexOf(token);
          at >= 0;
          at = compact.indexOf(token, at + token.length())) {
        count++;
      }
      bytes += (long) count * (WORST_CASE_ARN_LENGTH - token.length());
    }
    return bytes;
  }

  private static void substitutions(String where, Object value, List<CompileProblem> problems) {
    switch (value) {
      case String s when s.contains("${") -> {
        Matcher m = SUBSTITUTION.matcher(s);
        while (m.find()) {
          if (!m.group().endsWith("}")
              || !StateMachineCompiler.SUBSTITUTIONS.contains(m.group(1))) {
            problems.add(
                new CompileProblem(
                    where,
                    "substitution-syntax",
                    "the text '"
                        + s
                        + "' contains '${', which definition substitution reserves for "
                        + StateMachineCompiler.SUBSTITUTIONS.stream()
                            .map(n -> "${" + n + "}")
                            .toList()
                        + "; remove it from node ids, names and conditions"));
            return;
          }
        }
      }
      case Map<?, ?> map -> {
        for (Map.Entry<?, ?> e : map.entrySet()) {
          String key = (String) e.getKey();
          substitutions(where, key, problems);
          substitutions(stateLocation(where, key, e.getValue()), e.getValue(), problems);
        }
      }
      case List<?> list -> list.forEach(item -> substitutions(where, item, problems));
      default -> {}
    }
  }

  /** Names the state a value belongs to once the walk enters a state object. */
  private static String stateLocation(String where, String key, Object value) {
    if (value instanceof Map<?, ?> map && map.containsKey("Type") && !where.startsWith("state '")) {
      return "state '" + key + "'";
    }
    return where;
  }
}
