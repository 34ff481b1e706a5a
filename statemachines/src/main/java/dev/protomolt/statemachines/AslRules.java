package dev.protomolt.statemachines;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a finished definition against the rules AWS enforces at CreateStateMachine time but
 * {@code asl-validator} does not, and against {@link AslSubset}. The compiler runs it over its own
 * output, so a compiler change that would produce a definition AWS or the local runtime refuses
 * fails at compile time with the state named, instead of at deploy time.
 */
public final class AslRules {

  /** Step Functions refuses longer state names. */
  public static final int MAX_STATE_NAME_LENGTH = 80;

  private final List<CompileProblem> problems = new ArrayList<>();
  private final Map<String, Integer> nameCounts = new LinkedHashMap<>();

  private AslRules() {}

  /** Every problem in {@code definition}, in document order; empty when it is acceptable. */
  public static List<CompileProblem> check(Map<String, ?> definition) {
    AslRules rules = new AslRules();
    rules.machine(definition, "definition", AslSubset.TOP_LEVEL_FIELDS);
    rules.nameCounts.forEach(
        (name, count) -> {
          if (count > 1) {
            rules.problem(
                "state '" + name + "'",
                "state-name-unique",
                "the state name is used "
                    + count
                    + " times; Step Functions requires every state name to be unique in the whole"
                    + " definition, including inside Map processors");
          }
        });
    return List.copyOf(rules.problems);
  }

  private void machine(Map<String, ?> machine, String where, Set<String> allowed) {
    for (String field : machine.keySet()) {
      if (!allowed.contains(field)) {
        problem(
            where,
            "asl-subset",
            "field '"
                + field
                + "' is outside the ASL subset the local runtime implements; allowed: "
                + AslSubset.sorted(allowed));
      }
    }
    Map<String, ?> states = asMap(machine.get("States"));
    if (states == null || states.isEmpty()) {
      problem(where, "states-present", "'States' must be a non-empty object");
      return;
    }
    Object startAt = machine.get("StartAt");
    if (!(startAt instanceof String s) || !states.containsKey(s)) {
      problem(
          where,
          "transition-target",
          "'StartAt' must name a state of the same 'States' object, got " + startAt);
    }
    for (Map.Entry<String, ?> entry : states.entrySet()) {
      state(entry.getKey(), asMap(entry.getValue()), states);
    }
  }

  private void state(String name, Map<String, ?> state, Map<String, ?> scope) {
    String where = "state '" + name + "'";
    nameCounts.merge(name, 1, Integer::sum);
    if (name.length() > MAX_STATE_NAME_LENGTH) {
      problem(
          where,
          "state-name-length",
          "the state name is "
              + name.length()
              + " characters; Step Functions allows at most "
              + MAX_STATE_NAME_LENGTH);
    }
    if (name.isEmpty()) {
      problem(where, "state-name-length", "a state name must not be empty");
    }
    if (state == null) {
      problem(where, "asl-subset", "a state must be a JSON object");
      return;
    }
    Object type = state.get("Type");
    if (!(type instanceof String t) || !AslSubset.STATE_TYPES.contains(t)) {
      problem(
          where,
          "asl-subset",
          "state type '"
              + type
              + "' is outside the subset "
              + AslSubset.sorted(AslSubset.STATE_TYPES));
      return;
    }
    var allowed = AslSubset.stateFields(t);
    for (String field : state.keySet()) {
      if (!allowed.contains(field)) {
        problem(
            where,
            "asl-subset",
            "field '"
                + field
                + "' is not allowed on a "
                + t
                + " state in the ASL subset the local runtime implements");
      }
    }
    transitions(where, t, state, scope);
    paths(where, state);
    switch (t) {
      case "Task" -> task(where, state, scope);
      case "Choice" -> choice(where, state, scope);
      case "Map" -> map(where, state, scope);
      default -> {}
    }
  }

  private void transitions(String where, String type, Map<String, ?> state, Map<String, ?> scope) {
    boolean terminal = type.equals("Choice") || type.equals("Succeed") || type.equals("Fail");
    boolean hasNext = state.containsKey("Next");
    boolean end = Boolean.TRUE.equals(state.get("End"));
    if (terminal) {
      return;
    }
    if (hasNext == end) {
      problem(
          where,
          "transition-target",
          "a " + type + " state needs exactly one of 'Next' or 'End: true'");
    }
    if (hasNext) {
      target(where, "Next", state.get("Next"), scope);
    }
  }

  private void target(String where, String field, Object target, Map<String, ?> scope) {
    if (!(target instanceof String s) || !scope.containsKey(s)) {
      problem(
          where,
          "transition-target",
          "'"
              + field
              + "' names '"
              + target
              + "', which is not a state of the same 'States' object");
    }
  }

  private void paths(String where, Map<String, ?> state) {
    for (String field : List.of("InputPath", "OutputPath")) {
      if (state.containsKey(field) && state.get(field) != null) {
        readablePath(where, field, state.get(field));
      }
    }
    if (state.containsKey("ResultPath") && state.get("ResultPath") != null) {
      resultPath(where, "ResultPath", state.get("ResultPath"));
    }
    for (String field : List.of("Parameters", "ResultSelector", "ItemSelector")) {
      if (state.containsKey(field)) {
        payloadTemplate(where + " " + field, state.get(field));
      }
    }
  }

  private void payloadTemplate(String where, Object template) {
    if (template instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = (String) entry.getKey();
        if (key.endsWith(".$")) {
          if (!(entry.getValue() instanceof String expression)) {
            problem(
                where,
                "jsonpath-subset",
                "field '" + key + "' ends in '.$' so its value must be a path or intrinsic string");
            continue;
          }
          Optional<String> error = AslSubset.checkPayloadExpression(expression);
          error.ifPresent(e -> problem(where, "jsonpath-subset", "field '" + key + "': " + e));
        } else {
          payloadTemplate(where, entry.getValue());
        }
      }
    } else if (template instanceof List<?> list) {
      list.forEach(item -> payloadTemplate(where, item));
    }
  }

  private void readablePath(String where, String field, Object value) {
    if (!(value instanceof String path) || !AslSubset.isReadablePath(path)) {
      problem(
          where,
          "jsonpath-subset",
          "'"
              + field
              + "' is '"
              + value
              + "', not a path the local runtime implements (dot notation with optional [n]"
              + " indexes, or one of the listed context paths)");
    }
  }

  private void resultPath(String where, String field, Object value) {
    if (!(value instanceof String path) || !AslSubset.isResultPath(path)) {
      problem(
          where,
          "jsonpath-subset",
          "'"
              + field
              + "' is '"
              + value
              + "'; a result path is '$' or dot-separated field names, without indexes or context"
              + " paths");
    }
  }

  private void task(String where, Map<String, ?> state, Map<String, ?> scope) {
    Object resource = state.get("Resource");
    if (!(resource instanceof String r) || !AslSubset.TASK_RESOURCES.contains(r)) {
      problem(
          where,
          "asl-subset",
          "Resource '"
              + resource
              + "' is outside the subset "
              + AslSubset.sorted(AslSubset.TASK_RESOURCES));
    }
    Integer timeout = positiveSeconds(where, state, "TimeoutSeconds");
    Integer heartbeat = positiveSeconds(where, state, "HeartbeatSeconds");
    if (timeout != null && heartbeat != null && heartbeat >= timeout) {
      problem(
          where,
          "heartbeat-below-timeout",
          "HeartbeatSeconds ("
              + heartbeat
              + ") must be less than TimeoutSeconds ("
              + timeout
              + "); Step Functions refuses the definition otherwise");
    }
    retriers(where, state.get("Retry"));
    catchers(where, state.get("Catch"), scope);
  }

  private Integer positiveSeconds(String where, Map<String, ?> state, String field) {
    if (!state.containsKey(field)) {
      return null;
    }
    if (state.get(field) instanceof Integer seconds && seconds > 0) {
      return seconds;
    }
    problem(
        where,
        "positive-seconds",
        "'" + field + "' must be a positive integer, got " + state.get(field));
    return null;
  }

  private void retriers(String where, Object value) {
    if (value == null) {
      return;
    }
    List<?> retriers = (List<?>) value;
    for (int i = 0; i < retriers.size(); i++) {
      Map<String, ?> retrier = asMap(retriers.get(i));
      String at = where + " Retry[" + i + "]";
      fields(at, retrier, AslSubset.RETRIER_FIELDS);
      errorEquals(at, "Retry", retrier, i == retriers.size() - 1);
      if (retrier.get("BackoffRate") instanceof Double rate && rate < 1.0) {
        problem(at, "retry-bounds", "BackoffRate must be at least 1.0, got " + rate);
      }
      for (String field : List.of("IntervalSeconds", "MaxDelaySeconds")) {
        if (retrier.containsKey(field) && !(retrier.get(field) instanceof Integer s && s >= 1)) {
          problem(
              at, "retry-bounds", field + " must be a positive integer, got " + retrier.get(field));
        }
      }
      if (retrier.containsKey("MaxAttempts")
          && !(retrier.get("MaxAttempts") instanceof Integer a && a >= 0)) {
        problem(
            at,
            "retry-bounds",
            "MaxAttempts must be a non-negative integer, got " + retrier.get("MaxAttempts"));
      }
    }
  }

  private void catchers(String where, Object value, Map<String, ?> scope) {
    if (value == null) {
      return;
    }
    List<?> catchers = (List<?>) value;
    for (int i = 0; i < catchers.size(); i++) {
      Map<String, ?> catcher = asMap(catchers.get(i));
      String at = where + " Catch[" + i + "]";
      fields(at, catcher, AslSubset.CATCHER_FIELDS);
      errorEquals(at, "Catch", catcher, i == catchers.size() - 1);
      target(at, "Next", catcher.get("Next"), scope);
      if (catcher.get("ResultPath") != null) {
        resultPath(at, "ResultPath", catcher.get("ResultPath"));
      }
    }
  }

  private void errorEquals(String where, String list, Map<String, ?> entry, boolean last) {
    if (!(entry.get("ErrorEquals") instanceof List<?> errors) || errors.isEmpty()) {
      problem(where, "error-equals", "ErrorEquals must be a non-empty list of error names");
      return;
    }
    if (errors.contains("States.ALL")) {
      if (errors.size() != 1) {
        problem(
            where,
            "states-all-last-alone",
            "States.ALL must be the only error name in its ErrorEquals, found " + errors);
      }
      if (!last) {
        problem(
            where,
            "states-all-last-alone",
            "the " + list + " entry with States.ALL must be the last one in the " + list + " list");
      }
    }
  }

  private void choice(String where, Map<String, ?> state, Map<String, ?> scope) {
    if (!(state.get("Choices") instanceof List<?> choices) || choices.isEmpty()) {
      problem(where, "choice-rules", "a Choice state needs a non-empty 'Choices' list");
      return;
    }
    for (int i = 0; i < choices.size(); i++) {
      Map<String, ?> rule = asMap(choices.get(i));
      String at = where + " Choices[" + i + "]";
      choiceRule(at, rule, true);
      target(at, "Next", rule.get("Next"), scope);
    }
    if (state.containsKey("Default")) {
      target(where, "Default", state.get("Default"), scope);
    }
  }

  private void choiceRule(String where, Map<String, ?> rule, boolean topLevel) {
    int operators = 0;
    for (Map.Entry<String, ?> entry : rule.entrySet()) {
      String field = entry.getKey();
      switch (field) {
        case "Next" -> {
          if (!topLevel) {
            problem(where, "choice-rules", "'Next' is only allowed on a top-level choice rule");
          }
        }
        case "Variable" -> readablePath(where, "Variable", entry.getValue());
        case "And", "Or" -> {
          operators++;
          if (!(entry.getValue() instanceof List<?> nested) || nested.isEmpty()) {
            problem(where, "choice-rules", "'" + field + "' needs a non-empty list of rules");
          } else {
            for (Object n : nested) {
              choiceRule(where + " " + field, asMap(n), false);
            }
          }
        }
        case "Not" -> {
          operators++;
          choiceRule(where + " Not", asMap(entry.getValue()), false);
        }
        default -> {
          if (!AslSubset.CHOICE_COMPARISONS.contains(field)) {
            problem(
                where,
                "asl-subset",
                "choice operator '"
                    + field
                    + "' is outside the subset "
                    + AslSubset.sorted(AslSubset.CHOICE_COMPARISONS));
          } else {
            operators++;
            if (!rule.containsKey("Variable")) {
              problem(where, "choice-rules", "comparison '" + field + "' needs a 'Variable'");
            }
            if (field.endsWith("Path")) {
              readablePath(where, field, entry.getValue());
            }
          }
        }
      }
    }
    if (operators != 1) {
      problem(
          where,
          "choice-rules",
          "a choice rule needs exactly one comparison or combinator, found " + operators);
    }
  }

  private void map(String where, Map<String, ?> state, Map<String, ?> scope) {
    if (state.containsKey("ItemsPath")) {
      Object items = state.get("ItemsPath");
      if (!(items instanceof String p) || !AslSubset.isReferencePath(p)) {
        problem(
            where, "jsonpath-subset", "'ItemsPath' must be a reference path, got '" + items + "'");
      }
    }
    Map<String, ?> processor = asMap(state.get("ItemProcessor"));
    if (processor == null) {
      problem(where, "asl-subset", "a Map state needs an inline 'ItemProcessor'");
    } else {
      machine(processor, where + " ItemProcessor", AslSubset.PROCESSOR_FIELDS);
    }
    retriers(where, state.get("Retry"));
    catchers(where, state.get("Catch"), scope);
  }

  private void fields(String where, Map<String, ?> object, Set<String> allowed) {
    for (String field : object.keySet()) {
      if (!allowed.contains(field)) {
        problem(
            where,
            "asl-subset",
            "field '" + field + "' is outside the subset " + AslSubset.sorted(allowed));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> asMap(Object value) {
    return value instanceof Map<?, ?> map ? (Map<String, ?>) map : null;
  }

  private void problem(String where, String rule, String message) {
    problems.add(new CompileProblem(where, rule, message));
  }
}
