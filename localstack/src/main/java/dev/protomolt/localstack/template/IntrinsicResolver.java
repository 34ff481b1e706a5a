package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces CloudFormation's intrinsic functions in a JSON value with what they resolve to on the
 * local cloud: {@code Ref}, {@code Fn::GetAtt}, {@code Fn::Join}, {@code Fn::Sub} (both forms),
 * {@code Fn::Select}, {@code Fn::Split}, {@code Fn::GetAZs}, {@code Fn::Base64}, {@code
 * Fn::FindInMap}, {@code Fn::If} with the template's conditions, and the pseudo parameters. Anything
 * else (for example {@code Fn::ImportValue}, which needs another stack) is unresolvable and named.
 */
public final class IntrinsicResolver {

  /** Where {@code Ref} and {@code Fn::GetAtt} on a resource resolve; each throws if it cannot. */
  public interface Resources {

    /** The value of {@code Ref} on {@code logicalId}, or null when there is no such resource. */
    JsonNode ref(String logicalId);

    /**
     * The value of {@code Fn::GetAtt [logicalId, attribute]}; null when there is no such resource
     * or its type has no such attribute locally.
     */
    JsonNode getAtt(String logicalId, String attribute);
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!][^}]*)}");

  /** Marks an {@code AWS::NoValue} result, which removes the property or list element. */
  private static final JsonNode NO_VALUE = new TextNode("\u0000AWS::NoValue");

  private final CloudFormationTemplate template;
  private final StackContext stack;
  private final Resources resources;
  private final Map<String, Boolean> conditions = new HashMap<>();
  private final Set<String> evaluating = new HashSet<>();

  public IntrinsicResolver(
      CloudFormationTemplate template, StackContext stack, Resources resources) {
    this.template = template;
    this.stack = stack;
    this.resources = resources;
  }

  /** Resolves every intrinsic in {@code value}; {@code path} names it in error messages. */
  public JsonNode resolve(JsonNode value, String path) {
    JsonNode out = walk(value, path);
    return out == NO_VALUE ? NODES.missingNode() : out;
  }

  /** Whether the template's condition {@code name} holds. */
  public boolean condition(String name, String path) {
    Boolean known = conditions.get(name);
    if (known != null) {
      return known;
    }
    JsonNode body = template.conditions().path(name);
    if (body.isMissingNode()) {
      throw new UnresolvableException(path, "names condition '" + name + "', which is not defined");
    }
    if (!evaluating.add(name)) {
      throw new UnresolvableException(path, "condition '" + name + "' refers to itself");
    }
    try {
      boolean value = truth(body, "Conditions." + name);
      conditions.put(name, value);
      return value;
    } finally {
      evaluating.remove(name);
    }
  }

  private JsonNode walk(JsonNode value, String path) {
    if (value.isArray()) {
      ArrayNode out = NODES.arrayNode();
      for (int i = 0; i < value.size(); i++) {
        JsonNode element = walk(value.get(i), path + "[" + i + "]");
        if (element != NO_VALUE) {
          out.add(element);
        }
      }
      return out;
    }
    if (!value.isObject()) {
      return value;
    }
    if (value.size() == 1) {
      String key = value.properties().iterator().next().getKey();
      JsonNode arg = value.get(key);
      if (key.equals("Ref")) {
        return ref(text(walk(arg, path + ".Ref"), path + ".Ref"), path);
      }
      if (key.startsWith("Fn::")) {
        return function(key, arg, path + "." + key);
      }
    }
    ObjectNode out = NODES.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode element = walk(e.getValue(), path + "." + e.getKey());
      if (element != NO_VALUE) {
        out.set(e.getKey(), element);
      }
    }
    return out;
  }

  private JsonNode function(String name, JsonNode arg, String path) {
    switch (name) {
      case "Fn::GetAtt" -> {
        String logicalId;
        String attribute;
        if (arg.isTextual() && arg.asText().contains(".")) {
          int dot = arg.asText().indexOf('.');
          logicalId = arg.asText().substring(0, dot);
          attribute = arg.asText().substring(dot + 1);
        } else if (arg.isArray() && arg.size() == 2) {
          logicalId = text(arg.get(0), path + "[0]");
          attribute = text(walk(arg.get(1), path + "[1]"), path + "[1]");
        } else {
          throw new UnresolvableException(path, "must be [logicalId, attribute] or 'Id.Attr'");
        }
        return getAtt(logicalId, attribute, path);
      }
      case "Fn::Join" -> {
        if (!arg.isArray() || arg.size() != 2) {
          throw new UnresolvableException(path, "must be [delimiter, [values]]");
        }
        String delimiter = text(arg.get(0), path + "[0]");
        JsonNode values = walk(arg.get(1), path + "[1]");
        if (!values.isArray()) {
          throw new UnresolvableException(path + "[1]", "must resolve to a list");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
          if (i > 0) {
            out.append(delimiter);
          }
          out.append(text(values.get(i), path + "[1][" + i + "]"));
        }
        return TextNode.valueOf(out.toString());
      }
      case "Fn::Sub" -> {
        String body;
        Map<String, JsonNode> variables = new HashMap<>();
        if (arg.isTextual()) {
          body = arg.asText();
        } else if (arg.isArray() && arg.size() == 2 && arg.get(1).isObject()) {
          body = text(arg.get(0), path + "[0]");
          for (Map.Entry<String, JsonNode> v : arg.get(1).properties()) {
            variables.put(v.getKey(), walk(v.getValue(), path + "[1]." + v.getKey()));
          }
        } else {
          throw new UnresolvableException(path, "must be a string or [string, {variables}]");
        }
        Matcher m = SUB_VARIABLE.matcher(body);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
          String variable = m.group(1);
          JsonNode replacement;
          if (variables.containsKey(variable)) {
            replacement = variables.get(variable);
          } else if (variable.contains(".") && !variable.startsWith("AWS::")) {
            int dot = variable.indexOf('.');
            replacement = getAtt(variable.substring(0, dot), variable.substring(dot + 1), path);
          } else {
            replacement = ref(variable, path);
          }
          m.appendReplacement(out, Matcher.quoteReplacement(text(replacement, path)));
        }
        m.appendTail(out);
        // ${!Literal} writes ${Literal}, as CloudFormation defines.
        return TextNode.valueOf(out.toString().replace("${!", "${"));
      }
      case "Fn::Select" -> {
        if (!arg.isArray() || arg.size() != 2) {
          throw new UnresolvableException(path, "must be [index, [values]]");
        }
        JsonNode index = walk(arg.get(0), path + "[0]");
        int i;
        try {
          i = index.isNumber() ? index.asInt() : Integer.parseInt(index.asText());
        } catch (NumberFormatException e) {
          throw new UnresolvableException(path + "[0]", "must be an index, got " + index);
        }
        JsonNode values = walk(arg.get(1), path + "[1]");
        if (!values.isArray() || i < 0 || i >= values.size()) {
          throw new UnresolvableException(path, "index " + i + " is outside the list " + values);
        }
        return values.get(i);
      }
      case "Fn::Split" -> {
        if (!arg.isArray() || arg.size() != 2) {
          throw new UnresolvableException(path, "must be [delimiter, string]");
        }
        String delimiter = text(arg.get(0), path + "[0]");
        String source = text(walk(arg.get(1), path + "[1]"), path + "[1]");
        ArrayNode out = NODES.arrayNode();
        for (String part : source.split(Pattern.quote(delimiter), -1)) {
          out.add(part);
        }
        return out;
      }
      case "Fn::GetAZs" -> {
        String region = text(walk(arg, path), path);
        String r = region.isEmpty() ? stack.region() : region;
        ArrayNode out = NODES.arrayNode();
        out.add(r + "a");
        out.add(r + "b");
        out.add(r + "c");
        return out;
      }
      case "Fn::Base64" -> {
        String plain = text(walk(arg, path), path);
        return TextNode.valueOf(
            Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8)));
      }
      case "Fn::FindInMap" -> {
        if (!arg.isArray() || arg.size() != 3) {
          throw new UnresolvableException(path, "must be [map, topKey, secondKey]");
        }
        JsonNode found =
            template
                .mappings()
                .path(text(walk(arg.get(0), path + "[0]"), path + "[0]"))
                .path(text(walk(arg.get(1), path + "[1]"), path + "[1]"))
                .path(text(walk(arg.get(2), path + "[2]"), path + "[2]"));
        if (found.isMissingNode()) {
          throw new UnresolvableException(path, "no such entry in Mappings: " + arg);
        }
        return found;
      }
      case "Fn::If" -> {
        if (!arg.isArray() || arg.size() != 3) {
          throw new UnresolvableException(path, "must be [condition, ifTrue, ifFalse]");
        }
        boolean holds = condition(text(arg.get(0), path + "[0]"), path);
        return holds ? walk(arg.get(1), path + "[1]") : walk(arg.get(2), path + "[2]");
      }
      default ->
          throw new UnresolvableException(
              path, name + " is not supported by the local cloud's template deployer");
    }
  }

  private boolean truth(JsonNode node, String path) {
    if (node.isObject() && node.size() == 1) {
      String key = node.properties().iterator().next().getKey();
      JsonNode arg = node.get(key);
      switch (key) {
        case "Condition" -> {
          return condition(text(arg, path), path);
        }
        case "Fn::Equals" -> {
          if (!arg.isArray() || arg.size() != 2) {
            throw new UnresolvableException(path, "Fn::Equals must be [a, b]");
          }
          return walk(arg.get(0), path + "[0]").equals(walk(arg.get(1), path + "[1]"));
        }
        case "Fn::Not" -> {
          if (!arg.isArray() || arg.size() != 1) {
            throw new UnresolvableException(path, "Fn::Not must be [condition]");
          }
          return !truth(arg.get(0), path + "[0]");
        }
        case "Fn::And", "Fn::Or" -> {
          if (!arg.isArray() || arg.isEmpty()) {
            throw new UnresolvableException(path, key + " must be a list of conditions");
          }
          boolean and = key.equals("Fn::And");
          boolean result = and;
          for (int i = 0; i < arg.size(); i++) {
            boolean term = truth(arg.get(i), path + "[" + i + "]");
            result = and ? result && term : result || term;
          }
          return result;
        }
        default -> {
          // Any other intrinsic evaluates to a value: "true"/"false".
        }
      }
    }
    JsonNode value = walk(node, path);
    if (value.isBoolean() || "true".equals(value.asText()) || "false".equals(value.asText())) {
      return value.asBoolean() || "true".equals(value.asText());
    }
    throw new UnresolvableException(path, "is not a condition: " + node);
  }

  private JsonNode ref(String name, String path) {
    switch (name) {
      case "AWS::Region" -> {
        return TextNode.valueOf(stack.region());
      }
      case "AWS::AccountId" -> {
        return TextNode.valueOf(stack.accountId());
      }
      case "AWS::Partition" -> {
        return TextNode.valueOf(StackContext.PARTITION);
      }
      case "AWS::URLSuffix" -> {
        return TextNode.valueOf(StackContext.URL_SUFFIX);
      }
      case "AWS::StackName" -> {
        return TextNode.valueOf(stack.stackName());
      }
      case "AWS::StackId" -> {
        return TextNode.valueOf(
            stack.arn("cloudformation", "stack/" + stack.stackName() + "/local"));
      }
      case "AWS::NoValue" -> {
        return NO_VALUE;
      }
      default -> {
        // A parameter or a resource below.
      }
    }
    JsonNode parameter = template.parameters().path(name);
    if (!parameter.isMissingNode()) {
      JsonNode def = parameter.path("Default");
      if (def.isMissingNode()) {
        throw new UnresolvableException(
            path, "Ref to parameter '" + name + "', which has no Default to deploy locally with");
      }
      return def;
    }
    JsonNode value = resources.ref(name);
    if (value == null) {
      throw new UnresolvableException(
          path, "Ref to '" + name + "', which is no resource, parameter or pseudo parameter");
    }
    return value;
  }

  private JsonNode getAtt(String logicalId, String attribute, String path) {
    JsonNode value = resources.getAtt(logicalId, attribute);
    if (value == null) {
      throw new UnresolvableException(
          path,
          "Fn::GetAtt "
              + logicalId
              + "."
              + attribute
              + " cannot be resolved locally (no such resource, or an attribute its local"
              + " equivalent does not have)");
    }
    return value;
  }

  private static String text(JsonNode node, String path) {
    if (node.isTextual() || node.isNumber() || node.isBoolean()) {
      return node.asText();
    }
    throw new UnresolvableException(path, "must resolve to a string, got " + node);
  }
}
