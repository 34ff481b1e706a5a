package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.statemachines.AslSubset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses an Amazon States Language document into a {@link Definition}, checking at create time
 * that it stays inside the subset the local runtime executes exactly. Every problem is collected
 * with its location ({@code /States/<name>/<field>}) and the construct at fault; the parse then
 * fails once with all of them, as AWS's validator reports a list.
 */
public final class AslParser {

  /*
   * What the runtime accepts is the compiler's subset (statemachines' AslSubset, the one
   * definition of it) plus the few constructs below that only hand-written definitions use (the
   * template's own state machines): Pass Result, the older Map Iterator and Parameters, comments
   * on retriers and catchers, a machine's TimeoutSeconds, Version and QueryLanguage, and a
   * processor's ProcessorConfig. A state type exists here only if the subset names it.
   */
  private static final Set<String> TOP_FIELDS =
      union(AslSubset.TOP_LEVEL_FIELDS, Set.of("TimeoutSeconds", "Version", "QueryLanguage"));
  private static final Set<String> PROCESSOR_FIELDS =
      union(AslSubset.PROCESSOR_FIELDS, Set.of("ProcessorConfig"));
  private static final Map<String, Set<String>> BEYOND_THE_SUBSET =
      Map.of("Map", Set.of("Iterator", "Parameters"), "Pass", Set.of("Result"));
  private static final Map<String, Set<String>> STATE_FIELDS = stateFields();
  private static final Set<String> RETRY_FIELDS =
      union(AslSubset.RETRIER_FIELDS, Set.of("Comment"));
  private static final Set<String> CATCH_FIELDS =
      union(AslSubset.CATCHER_FIELDS, Set.of("Comment"));

  private final List<String> problems = new ArrayList<>();

  private AslParser() {}

  /**
   * Parses and checks {@code text}.
   *
   * @throws InvalidDefinitionException listing every problem, each with its location
   */
  public static Definition parse(String text) {
    JsonNode root;
    try {
      root = Json.parse(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidDefinitionException(List.of("INVALID_JSON_DESCRIPTION: " + e.getMessage()));
    }
    AslParser parser = new AslParser();
    Definition definition = parser.machine(root, "", true);
    if (!parser.problems.isEmpty()) {
      throw new InvalidDefinitionException(parser.problems);
    }
    return definition;
  }

  private Definition machine(JsonNode node, String at, boolean top) {
    if (!node.isObject()) {
      problem("SCHEMA_VALIDATION_FAILED", "a state machine must be a JSON object", at + "/");
      return null;
    }
    for (String field : names(node)) {
      if (!(top ? TOP_FIELDS : PROCESSOR_FIELDS).contains(field)) {
        unsupported("field '" + field + "'", at + "/" + field);
      }
    }
    if (top
        && node.has("QueryLanguage")
        && !"JSONPath".equals(node.get("QueryLanguage").asText())) {
      unsupported(
          "QueryLanguage '" + node.get("QueryLanguage").asText() + "' (only JSONPath is supported)",
          "/QueryLanguage");
    }
    if (!top && node.has("ProcessorConfig")) {
      JsonNode config = node.get("ProcessorConfig");
      JsonNode mode = config.get("Mode");
      if (mode != null && !"INLINE".equals(mode.asText())) {
        unsupported(
            "ProcessorConfig Mode '" + mode.asText() + "' (only INLINE)",
            at + "/ProcessorConfig/Mode");
      }
      for (String field : names(config)) {
        if (!field.equals("Mode")) {
          unsupported("ProcessorConfig field '" + field + "'", at + "/ProcessorConfig/" + field);
        }
      }
    }
    Integer timeout = top ? positiveInt(node, "TimeoutSeconds", at) : null;
    String startAt = text(node, "StartAt", at, true);
    JsonNode statesNode = node.get("States");
    Map<String, State> states = new LinkedHashMap<>();
    if (statesNode == null || !statesNode.isObject() || statesNode.isEmpty()) {
      problem("SCHEMA_VALIDATION_FAILED", "'States' must be a non-empty object", at + "/States");
      return null;
    }
    for (Map.Entry<String, JsonNode> entry : statesNode.properties()) {
      State state = state(entry.getKey(), entry.getValue(), at + "/States/" + entry.getKey());
      if (state != null) {
        states.put(entry.getKey(), state);
      }
    }
    if (startAt != null && !statesNode.has(startAt)) {
      problem("MISSING_TRANSITION_TARGET", "Missing 'StartAt' target: " + startAt, at + "/StartAt");
    }
    checkTransitions(statesNode, at);
    if (startAt != null && statesNode.has(startAt)) {
      checkReachable(startAt, statesNode, at);
    }
    return new Definition(startAt == null ? "" : startAt, states, timeout);
  }

  private State state(String name, JsonNode node, String at) {
    if (!node.isObject()) {
      problem("SCHEMA_VALIDATION_FAILED", "state must be an object", at);
      return null;
    }
    String type = node.path("Type").asText("");
    Set<String> allowed = STATE_FIELDS.get(type);
    if (allowed == null) {
      unsupported(
          "state type '"
              + type
              + "' in state '"
              + name
              + "' (supported: "
              + String.join(", ", AslSubset.STATE_TYPES.stream().sorted().toList())
              + ")",
          at + "/Type");
      return null;
    }
    for (String field : names(node)) {
      if (!allowed.contains(field)) {
        unsupported("field '" + field + "' in " + type + " state '" + name + "'", at + "/" + field);
      }
    }
    String next = transition(node, at, type);
    String inputPath = path(node, "InputPath", at, false);
    String outputPath = path(node, "OutputPath", at, false);
    return switch (type) {
      case "Task" -> task(name, node, at, inputPath, outputPath, next);
      case "Choice" -> choice(name, node, at, inputPath, outputPath);
      case "Map" -> map(name, node, at, inputPath, outputPath, next);
      case "Pass" -> {
        JsonNode parameters = template(node, "Parameters", at);
        yield new State.Pass(
            name,
            inputPath,
            parameters,
            node.get("Result"),
            path(node, "ResultPath", at, true),
            outputPath,
            next);
      }
      case "Succeed" -> new State.Succeed(name, inputPath, outputPath);
      case "Fail" ->
          new State.Fail(name, text(node, "Error", at, false), text(node, "Cause", at, false));
      default -> throw new IllegalStateException(type);
    };
  }

  private State task(
      String name, JsonNode node, String at, String inputPath, String outputPath, String next) {
    String resourceArn = text(node, "Resource", at, true);
    State.TaskResource resource = State.TaskResource.of(resourceArn);
    if (resourceArn != null && resource == null) {
      unsupported(
          "Resource '"
              + resourceArn
              + "' in Task state '"
              + name
              + "' (supported: "
              + String.join(", ", AslSubset.TASK_RESOURCES.stream().sorted().toList())
              + ")",
          at + "/Resource");
    }
    JsonNode parameters = template(node, "Parameters", at);
    if (resource == State.TaskResource.LAMBDA_INVOKE
        || resource == State.TaskResource.LAMBDA_INVOKE_WAIT_FOR_TASK_TOKEN) {
      if (parameters == null
          || !(parameters.has("FunctionName") || parameters.has("FunctionName.$"))) {
        problem(
            "SCHEMA_VALIDATION_FAILED",
            "The field 'FunctionName' is required by " + resourceArn,
            at + "/Parameters");
      }
    }
    if (resource == State.TaskResource.STATES_START_EXECUTION
        && (parameters == null
            || !(parameters.has("StateMachineArn") || parameters.has("StateMachineArn.$")))) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "The field 'StateMachineArn' is required by " + resourceArn,
          at + "/Parameters");
    }
    Integer timeout = positiveInt(node, "TimeoutSeconds", at);
    Integer heartbeat = positiveInt(node, "HeartbeatSeconds", at);
    if (timeout != null && heartbeat != null && heartbeat >= timeout) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "HeartbeatSeconds must be smaller than TimeoutSeconds",
          at + "/HeartbeatSeconds");
    }
    return new State.Task(
        name,
        resource,
        inputPath,
        parameters,
        template(node, "ResultSelector", at),
        path(node, "ResultPath", at, true),
        outputPath,
        retriers(node, at),
        catchers(node, at),
        timeout,
        heartbeat,
        next);
  }

  private State choice(String name, JsonNode node, String at, String inputPath, String outputPath) {
    JsonNode choices = node.get("Choices");
    List<ChoiceRule.Branch> branches = new ArrayList<>();
    if (choices == null || !choices.isArray() || choices.isEmpty()) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "Choice state '" + name + "' needs a non-empty Choices",
          at + "/Choices");
    } else {
      for (int i = 0; i < choices.size(); i++) {
        JsonNode rule = choices.get(i);
        String ruleAt = at + "/Choices/" + i;
        String next = rule.path("Next").isTextual() ? rule.get("Next").textValue() : null;
        if (next == null) {
          problem("SCHEMA_VALIDATION_FAILED", "a Choices rule needs 'Next'", ruleAt + "/Next");
        }
        ChoiceRule parsed = rule(rule, ruleAt, name, true);
        if (parsed != null) {
          branches.add(new ChoiceRule.Branch(parsed, next));
        }
      }
    }
    String defaultNext = text(node, "Default", at, false);
    return new State.Choice(name, inputPath, outputPath, branches, defaultNext);
  }

  private ChoiceRule rule(JsonNode node, String at, String state, boolean top) {
    if (!node.isObject()) {
      problem("SCHEMA_VALIDATION_FAILED", "a choice rule must be an object", at);
      return null;
    }
    List<String> operators = new ArrayList<>();
    for (String field : names(node)) {
      if (field.equals("Variable") || field.equals("Comment") || (top && field.equals("Next"))) {
        continue;
      }
      if (field.equals("And") || field.equals("Or") || field.equals("Not")) {
        operators.add(field);
        continue;
      }
      try {
        ChoiceRule.Operator.valueOf(field);
        operators.add(field);
      } catch (IllegalArgumentException e) {
        unsupported(
            "choice rule field '"
                + field
                + "' in Choice state '"
                + state
                + "' (supported: StringEquals, StringEqualsPath, NumericEquals, NumericGreaterThan,"
                + " NumericLessThan, BooleanEquals, IsPresent, IsNull, And, Or, Not)",
            at + "/" + field);
        return null;
      }
    }
    if (operators.size() != 1) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "a choice rule needs exactly one comparison or " + "And/Or/Not, found " + operators,
          at);
      return null;
    }
    String op = operators.getFirst();
    switch (op) {
      case "And", "Or" -> {
        JsonNode list = node.get(op);
        if (!list.isArray() || list.isEmpty()) {
          problem("SCHEMA_VALIDATION_FAILED", op + " needs a non-empty array", at + "/" + op);
          return null;
        }
        List<ChoiceRule> rules = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
          ChoiceRule r = rule(list.get(i), at + "/" + op + "/" + i, state, false);
          if (r != null) {
            rules.add(r);
          }
        }
        return op.equals("And") ? new ChoiceRule.And(rules) : new ChoiceRule.Or(rules);
      }
      case "Not" -> {
        ChoiceRule inner = rule(node.get("Not"), at + "/Not", state, false);
        return inner == null ? null : new ChoiceRule.Not(inner);
      }
      default -> {
        ChoiceRule.Operator operator = ChoiceRule.Operator.valueOf(op);
        JsonNode variableNode = node.get("Variable");
        if (variableNode == null || !variableNode.isTextual()) {
          problem(
              "SCHEMA_VALIDATION_FAILED",
              "a comparison needs a string 'Variable'",
              at + "/Variable");
          return null;
        }
        ReferencePath variable;
        try {
          variable = ReferencePath.parse(variableNode.textValue());
        } catch (IllegalArgumentException e) {
          unsupported(
              "Variable in Choice state '" + state + "': " + e.getMessage(), at + "/Variable");
          return null;
        }
        JsonNode operand = node.get(op);
        boolean ok =
            switch (operator) {
              case StringEquals -> operand.isTextual();
              case StringEqualsPath -> operand.isTextual() && validPath(operand.textValue());
              case NumericEquals, NumericGreaterThan, NumericLessThan -> operand.isNumber();
              case BooleanEquals, IsPresent, IsNull -> operand.isBoolean();
            };
        if (!ok) {
          problem(
              "SCHEMA_VALIDATION_FAILED",
              "the value of '" + op + "' has the wrong type: " + operand,
              at + "/" + op);
          return null;
        }
        return new ChoiceRule.Comparison(variable, operator, operand);
      }
    }
  }

  private State map(
      String name, JsonNode node, String at, String inputPath, String outputPath, String next) {
    JsonNode processor =
        node.has("ItemProcessor") ? node.get("ItemProcessor") : node.get("Iterator");
    String processorField = node.has("ItemProcessor") ? "ItemProcessor" : "Iterator";
    if (node.has("ItemProcessor") && node.has("Iterator")) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "use either ItemProcessor or Iterator, not both",
          at + "/Iterator");
    }
    if (node.has("ItemSelector") && node.has("Parameters")) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "use either ItemSelector or Parameters, not both",
          at + "/Parameters");
    }
    Definition iterator = null;
    if (processor == null) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "Map state '" + name + "' needs an ItemProcessor",
          at + "/ItemProcessor");
    } else {
      iterator = machine(processor, at + "/" + processorField, false);
    }
    JsonNode selector =
        node.has("ItemSelector")
            ? template(node, "ItemSelector", at)
            : template(node, "Parameters", at);
    int maxConcurrency = 0;
    if (node.has("MaxConcurrency")) {
      JsonNode mc = node.get("MaxConcurrency");
      if (!mc.canConvertToInt() || !mc.isIntegralNumber() || mc.intValue() < 0) {
        problem(
            "SCHEMA_VALIDATION_FAILED",
            "MaxConcurrency must be a non-negative integer",
            at + "/MaxConcurrency");
      } else {
        maxConcurrency = mc.intValue();
      }
    }
    String itemsPath = node.has("ItemsPath") ? path(node, "ItemsPath", at, false) : "$";
    return new State.Map(
        name,
        inputPath,
        itemsPath,
        selector,
        maxConcurrency,
        iterator,
        template(node, "ResultSelector", at),
        path(node, "ResultPath", at, true),
        outputPath,
        retriers(node, at),
        catchers(node, at),
        next);
  }

  private List<State.Retrier> retriers(JsonNode node, String at) {
    List<State.Retrier> out = new ArrayList<>();
    JsonNode retry = node.get("Retry");
    if (retry == null) {
      return out;
    }
    if (!retry.isArray()) {
      problem("SCHEMA_VALIDATION_FAILED", "Retry must be an array", at + "/Retry");
      return out;
    }
    for (int i = 0; i < retry.size(); i++) {
      JsonNode r = retry.get(i);
      String rAt = at + "/Retry/" + i;
      for (String field : names(r)) {
        if (!RETRY_FIELDS.contains(field)) {
          unsupported("Retry field '" + field + "'", rAt + "/" + field);
        }
      }
      List<String> errors = errorEquals(r, rAt, i == retry.size() - 1);
      int interval = intField(r, "IntervalSeconds", rAt, 1, 1);
      int maxAttempts = intField(r, "MaxAttempts", rAt, 3, 0);
      double backoff = 2.0;
      if (r.has("BackoffRate")) {
        if (!r.get("BackoffRate").isNumber() || r.get("BackoffRate").doubleValue() < 1.0) {
          problem(
              "SCHEMA_VALIDATION_FAILED",
              "BackoffRate must be a number >= 1.0",
              rAt + "/BackoffRate");
        } else {
          backoff = r.get("BackoffRate").doubleValue();
        }
      }
      Integer maxDelay =
          r.has("MaxDelaySeconds") ? intField(r, "MaxDelaySeconds", rAt, 1, 1) : null;
      boolean full = false;
      if (r.has("JitterStrategy")) {
        String jitter = r.get("JitterStrategy").asText();
        if (jitter.equals("FULL")) {
          full = true;
        } else if (!jitter.equals("NONE")) {
          problem(
              "SCHEMA_VALIDATION_FAILED",
              "JitterStrategy must be FULL or NONE",
              rAt + "/JitterStrategy");
        }
      }
      out.add(new State.Retrier(errors, interval, maxAttempts, backoff, maxDelay, full));
    }
    return out;
  }

  private List<State.Catcher> catchers(JsonNode node, String at) {
    List<State.Catcher> out = new ArrayList<>();
    JsonNode catches = node.get("Catch");
    if (catches == null) {
      return out;
    }
    if (!catches.isArray()) {
      problem("SCHEMA_VALIDATION_FAILED", "Catch must be an array", at + "/Catch");
      return out;
    }
    for (int i = 0; i < catches.size(); i++) {
      JsonNode c = catches.get(i);
      String cAt = at + "/Catch/" + i;
      for (String field : names(c)) {
        if (!CATCH_FIELDS.contains(field)) {
          unsupported("Catch field '" + field + "'", cAt + "/" + field);
        }
      }
      List<String> errors = errorEquals(c, cAt, i == catches.size() - 1);
      out.add(
          new State.Catcher(errors, text(c, "Next", cAt, true), path(c, "ResultPath", cAt, true)));
    }
    return out;
  }

  private List<String> errorEquals(JsonNode node, String at, boolean last) {
    JsonNode list = node.get("ErrorEquals");
    List<String> out = new ArrayList<>();
    if (list == null || !list.isArray() || list.isEmpty()) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "ErrorEquals must be a non-empty array of strings",
          at + "/ErrorEquals");
      return out;
    }
    list.forEach(e -> out.add(e.asText()));
    if (out.contains(StatesError.ALL) && (out.size() > 1 || !last)) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "States.ALL must appear alone and in the last " + "retrier/catcher",
          at + "/ErrorEquals");
    }
    return out;
  }

  private String transition(JsonNode node, String at, String type) {
    boolean terminal = type.equals("Choice") || type.equals("Succeed") || type.equals("Fail");
    if (terminal) {
      return null;
    }
    boolean hasNext = node.has("Next");
    boolean end = node.path("End").asBoolean(false);
    if (hasNext == end) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "a " + type + " state needs exactly one of 'Next' or " + "'End: true'",
          at);
      return null;
    }
    return hasNext ? node.get("Next").asText() : null;
  }

  private void checkTransitions(JsonNode states, String at) {
    for (Map.Entry<String, JsonNode> entry : states.properties()) {
      String where = at + "/States/" + entry.getKey();
      for (Map.Entry<String, String> target : targets(entry.getValue()).entrySet()) {
        if (!states.has(target.getValue())) {
          problem(
              "MISSING_TRANSITION_TARGET",
              "Missing 'Next' target: " + target.getValue(),
              where + "/" + target.getKey());
        }
      }
    }
  }

  private void checkReachable(String startAt, JsonNode states, String at) {
    Set<String> seen = new HashSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(startAt));
    while (!queue.isEmpty()) {
      String name = queue.pop();
      if (!seen.add(name) || !states.has(name)) {
        continue;
      }
      queue.addAll(targets(states.get(name)).values());
    }
    for (String name : names(states)) {
      if (!seen.contains(name)) {
        problem(
            "UNREACHABLE_STATE", "State '" + name + "' is not reachable", at + "/States/" + name);
      }
    }
  }

  private static Map<String, String> targets(JsonNode state) {
    Map<String, String> out = new LinkedHashMap<>();
    if (state.path("Next").isTextual()) {
      out.put("Next", state.get("Next").textValue());
    }
    if (state.path("Default").isTextual()) {
      out.put("Default", state.get("Default").textValue());
    }
    JsonNode choices = state.path("Choices");
    for (int i = 0; i < choices.size(); i++) {
      if (choices.get(i).path("Next").isTextual()) {
        out.put("Choices/" + i + "/Next", choices.get(i).get("Next").textValue());
      }
    }
    JsonNode catches = state.path("Catch");
    for (int i = 0; i < catches.size(); i++) {
      if (catches.get(i).path("Next").isTextual()) {
        out.put("Catch/" + i + "/Next", catches.get(i).get("Next").textValue());
      }
    }
    return out;
  }

  private JsonNode template(JsonNode node, String field, String at) {
    JsonNode template = node.get(field);
    if (template == null) {
      return null;
    }
    for (String p : PayloadTemplate.check(template)) {
      unsupported(field + " " + p, at + "/" + field);
    }
    return template;
  }

  /** A path field: absent → "$", JSON null → null (only where ASL allows null). */
  private String path(JsonNode node, String field, String at, boolean resultPath) {
    JsonNode value = node.get(field);
    if (value == null) {
      return "$";
    }
    if (value.isNull()) {
      if (field.equals("ItemsPath")) {
        problem("SCHEMA_VALIDATION_FAILED", "ItemsPath cannot be null", at + "/" + field);
      }
      return null;
    }
    if (!value.isTextual()) {
      problem("SCHEMA_VALIDATION_FAILED", field + " must be a string or null", at + "/" + field);
      return "$";
    }
    try {
      ReferencePath path = ReferencePath.parse(value.textValue());
      if (resultPath
          && (path.context() || path.segments().stream().anyMatch(s -> s instanceof Integer))) {
        unsupported(
            field
                + " '"
                + value.textValue()
                + "' (a ResultPath names data fields only, no $$ and no [n])",
            at + "/" + field);
      }
    } catch (IllegalArgumentException e) {
      unsupported(field + ": " + e.getMessage(), at + "/" + field);
    }
    return value.textValue();
  }

  private boolean validPath(String text) {
    try {
      ReferencePath.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private String text(JsonNode node, String field, String at, boolean required) {
    JsonNode value = node.get(field);
    if (value == null) {
      if (required) {
        problem(
            "SCHEMA_VALIDATION_FAILED", "The field '" + field + "' is required", at + "/" + field);
      }
      return null;
    }
    if (!value.isTextual()) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "The field '" + field + "' must be a string",
          at + "/" + field);
      return null;
    }
    return value.textValue();
  }

  private Integer positiveInt(JsonNode node, String field, String at) {
    return node.has(field) ? intField(node, field, at, 0, 1) : null;
  }

  private int intField(JsonNode node, String field, String at, int fallback, int min) {
    JsonNode value = node.get(field);
    if (value == null) {
      return fallback;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < min) {
      problem(
          "SCHEMA_VALIDATION_FAILED",
          "The field '" + field + "' must be an integer >= " + min,
          at + "/" + field);
      return fallback;
    }
    return value.intValue();
  }

  /** The fields a state of {@code type} may carry here; empty for a type outside the subset. */
  static Set<String> acceptedFields(String type) {
    return STATE_FIELDS.getOrDefault(type, Set.of());
  }

  private static Map<String, Set<String>> stateFields() {
    Map<String, Set<String>> fields = new LinkedHashMap<>();
    for (String type : AslSubset.STATE_TYPES) {
      fields.put(
          type, union(AslSubset.stateFields(type), BEYOND_THE_SUBSET.getOrDefault(type, Set.of())));
    }
    return Map.copyOf(fields);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  private void unsupported(String what, String at) {
    problem(
        "UNSUPPORTED_CONSTRUCT", what + " is outside the subset the local runtime executes", at);
  }

  private void problem(String code, String message, String at) {
    problems.add(code + ": " + message + " at " + (at.isEmpty() ? "/" : at));
  }
}
