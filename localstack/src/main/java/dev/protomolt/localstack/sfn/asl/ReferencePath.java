package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A JSONPath reference path in the subset the runtime executes exactly: {@code $}, dot-notation
 * field names and {@code [n]} array indexes ({@code $.a[0].b}), rooted either at the state's data
 * ({@code $}) or at the context object ({@code $$}).
 *
 * @param text the path as written in the definition
 * @param context true for {@code $$} paths into the context object
 * @param segments field names ({@link String}) and array indexes ({@link Integer}) in order
 */
public record ReferencePath(String text, boolean context, List<Object> segments) {

  /** Context paths the compiler may use; values below Execution.Input and Map.Item.Value too. */
  private static final Set<String> CONTEXT_LEAVES =
      Set.of(
          "Execution.Id",
          "Execution.Name",
          "Execution.Input",
          "Execution.StartTime",
          "Execution.RedriveCount",
          "StateMachine.Id",
          "StateMachine.Name",
          "State.Name",
          "State.EnteredTime",
          "State.RetryCount",
          "Task.Token",
          "Map.Item.Value",
          "Map.Item.Index");

  private static final List<String> CONTEXT_OPEN_PREFIXES =
      List.of("Execution.Input", "Map.Item.Value");

  public ReferencePath {
    segments = List.copyOf(segments);
  }

  /**
   * Parses a path, rejecting anything outside the supported subset with the rule it breaks.
   *
   * @throws IllegalArgumentException naming the unsupported construct
   */
  public static ReferencePath parse(String text) {
    if (text == null || !text.startsWith("$")) {
      throw new IllegalArgumentException("a reference path starts with '$': " + text);
    }
    boolean context = text.startsWith("$$");
    int i = context ? 2 : 1;
    List<Object> segments = new ArrayList<>();
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < text.length() && text.charAt(end) != '.' && text.charAt(end) != '[') {
          end++;
        }
        String name = text.substring(i + 1, end);
        if (name.isEmpty()) {
          throw new IllegalArgumentException("empty field name in path " + text);
        }
        if (name.contains("]")
            || name.contains("*")
            || name.contains("?")
            || name.contains("'")
            || name.contains("@")
            || name.contains("(")) {
          throw new IllegalArgumentException(
              "unsupported JSONPath construct in "
                  + text
                  + " (only dot-notation names and [n] indexes are supported)");
        }
        segments.add(name);
        i = end;
      } else if (c == '[') {
        int close = text.indexOf(']', i);
        if (close < 0) {
          throw new IllegalArgumentException("unclosed '[' in path " + text);
        }
        String index = text.substring(i + 1, close);
        if (!index.matches("\\d+")) {
          throw new IllegalArgumentException(
              "unsupported JSONPath construct '["
                  + index
                  + "]' in "
                  + text
                  + " (only non-negative integer indexes are supported)");
        }
        segments.add(Integer.parseInt(index));
        i = close + 1;
      } else {
        throw new IllegalArgumentException("unexpected '" + c + "' in path " + text);
      }
    }
    if (context) {
      checkContextPath(text, segments);
    }
    return new ReferencePath(text, context, segments);
  }

  private static void checkContextPath(String text, List<Object> segments) {
    StringBuilder dotted = new StringBuilder();
    for (Object s : segments) {
      if (s instanceof Integer) {
        break;
      }
      if (!dotted.isEmpty()) {
        dotted.append('.');
      }
      dotted.append(s);
    }
    String path = dotted.toString();
    if (CONTEXT_LEAVES.contains(path)) {
      return;
    }
    for (String prefix : CONTEXT_OPEN_PREFIXES) {
      if (path.startsWith(prefix + ".") || path.equals(prefix)) {
        return;
      }
    }
    throw new IllegalArgumentException(
        "unsupported context object path "
            + text
            + " (supported: $$."
            + String.join(", $$.", CONTEXT_LEAVES.stream().sorted().toList())
            + ")");
  }

  /** Selects the value, or null when the path does not exist in {@code data}. */
  public JsonNode select(JsonNode data, JsonNode contextObject) {
    JsonNode node = context ? contextObject : data;
    for (Object segment : segments) {
      if (node == null) {
        return null;
      }
      if (segment instanceof String name) {
        node = node.isObject() ? node.get(name) : null;
      } else {
        int index = (Integer) segment;
        node = node.isArray() && index < node.size() ? node.get(index) : null;
      }
    }
    return node;
  }

  /** Like {@link #select} but a missing value is the runtime error AWS reports. */
  public JsonNode require(JsonNode data, JsonNode contextObject, String field) {
    JsonNode value = select(data, contextObject);
    if (value == null) {
      throw StatesError.runtime(
          "An error occurred while executing the state: the JSONPath '"
              + text
              + "' specified for the field '"
              + field
              + "' could not be found in the input '"
              + Json.print(context ? contextObject : data)
              + "'");
    }
    return value;
  }

  /**
   * Returns a copy of {@code target} with {@code value} placed at this path, creating objects on
   * the way, as ResultPath does. Placing into something that is not an object is
   * States.ResultPathMatchFailure.
   */
  public JsonNode put(JsonNode target, JsonNode value) {
    if (segments.isEmpty()) {
      return value;
    }
    if (!target.isObject()) {
      throw new StatesError(
          StatesError.RESULT_PATH_MATCH_FAILURE,
          "Unable to apply ResultPath '"
              + text
              + "' to input '"
              + Json.print(target)
              + "': the input is not an object");
    }
    JsonNode root = target.deepCopy();
    JsonNode node = root;
    for (int i = 0; i < segments.size(); i++) {
      Object segment = segments.get(i);
      boolean last = i == segments.size() - 1;
      if (segment instanceof String name && node instanceof ObjectNode object) {
        if (last) {
          object.set(name, value);
        } else {
          JsonNode child = object.get(name);
          if (child == null || child.isNull()) {
            child = object.putObject(name);
          }
          node = child;
        }
      } else if (segment instanceof Integer index
          && node instanceof ArrayNode array
          && index < array.size()) {
        if (last) {
          array.set(index, value);
        } else {
          node = array.get(index);
        }
      } else {
        throw new StatesError(
            StatesError.RESULT_PATH_MATCH_FAILURE,
            "Unable to apply ResultPath '" + text + "' to input '" + Json.print(target) + "'");
      }
    }
    return root;
  }
}
