package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A payload template (Parameters, ResultSelector, ItemSelector): static JSON in which every field
 * whose name ends in {@code .$} takes the value of a path or an intrinsic call, with the suffix
 * dropped from the name. Nested objects and objects inside arrays are templates too.
 */
public final class PayloadTemplate {

  private final JsonNode template;

  private PayloadTemplate(JsonNode template) {
    this.template = template;
  }

  /**
   * Checks every dynamic field at create time and returns the problems, each naming the field.
   */
  public static List<String> check(JsonNode template) {
    List<String> problems = new ArrayList<>();
    collect(template, "", problems);
    return problems;
  }

  public static PayloadTemplate of(JsonNode template) {
    return new PayloadTemplate(template);
  }

  private static void collect(JsonNode node, String where, List<String> problems) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String key = field.getKey();
        String at = where + "/" + key;
        if (key.endsWith(".$")) {
          if (!field.getValue().isTextual()) {
            problems.add("field '" + key + "' at " + at + " must be a string path or intrinsic");
            continue;
          }
          String value = field.getValue().textValue();
          try {
            if (IntrinsicFunction.looksLikeCall(value)) {
              IntrinsicFunction.parse(value);
            } else {
              ReferencePath.parse(value);
            }
          } catch (IllegalArgumentException e) {
            problems.add("field '" + key + "' at " + at + ": " + e.getMessage());
          }
        } else {
          collect(field.getValue(), at, problems);
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(node.get(i), where + "/" + i, problems);
      }
    }
  }

  /** Produces the effective payload for {@code data} and the context object. */
  public JsonNode evaluate(JsonNode data, JsonNode context) {
    return evaluate(template, data, context);
  }

  private static JsonNode evaluate(JsonNode node, JsonNode data, JsonNode context) {
    if (node.isObject()) {
      ObjectNode out = Json.object();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String key = field.getKey();
        if (key.endsWith(".$")) {
          String expression = field.getValue().textValue();
          String name = key.substring(0, key.length() - 2);
          JsonNode value =
              IntrinsicFunction.looksLikeCall(expression)
                  ? IntrinsicFunction.parse(expression).evaluate(data, context)
                  : ReferencePath.parse(expression).require(data, context, key);
          out.set(name, value);
        } else {
          out.set(key, evaluate(field.getValue(), data, context));
        }
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = Json.NODES.arrayNode();
      node.forEach(item -> out.add(evaluate(item, data, context)));
      return out;
    }
    return node;
  }
}
