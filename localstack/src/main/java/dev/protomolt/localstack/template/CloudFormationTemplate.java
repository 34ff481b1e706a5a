package dev.protomolt.localstack.template;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CloudFormation template in its JSON form, as {@code cdk synth} writes it: resources in template
 * order, and the parameters, conditions and mappings intrinsics may refer to.
 */
public record CloudFormationTemplate(
    Map<String, TemplateResource> resources,
    JsonNode parameters,
    JsonNode conditions,
    JsonNode mappings,
    JsonNode root) {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /** Parses {@code json}; a malformed resource entry is named by its logical id. */
  public static CloudFormationTemplate parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidTemplateException(
          List.of(new TemplateProblem("$", null, null, "is not JSON: " + e.getOriginalMessage())));
    }
    if (root == null || !root.isObject()) {
      throw new InvalidTemplateException(
          List.of(new TemplateProblem("$", null, null, "must be a JSON object")));
    }
    JsonNode resources = root.path("Resources");
    if (!resources.isObject() || resources.isEmpty()) {
      throw new InvalidTemplateException(
          List.of(new TemplateProblem("Resources", null, null, "must be a non-empty object")));
    }
    List<TemplateProblem> problems = new ArrayList<>();
    Map<String, TemplateResource> parsed = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : resources.properties()) {
      String id = e.getKey();
      JsonNode r = e.getValue();
      JsonNode type = r.path("Type");
      if (!type.isTextual() || type.asText().isBlank()) {
        problems.add(new TemplateProblem(id, null, "Type", "is required and must be a string"));
        continue;
      }
      List<String> dependsOn = new ArrayList<>();
      JsonNode deps = r.path("DependsOn");
      if (deps.isTextual()) {
        dependsOn.add(deps.asText());
      } else if (deps.isArray()) {
        deps.forEach(d -> dependsOn.add(d.asText()));
      }
      JsonNode condition = r.path("Condition");
      parsed.put(
          id,
          new TemplateResource(
              id,
              type.asText(),
              r.path("Properties"),
              dependsOn,
              condition.isTextual() ? condition.asText() : null));
    }
    if (!problems.isEmpty()) {
      throw new InvalidTemplateException(problems);
    }
    return new CloudFormationTemplate(
        parsed,
        orEmpty(root.path("Parameters")),
        orEmpty(root.path("Conditions")),
        orEmpty(root.path("Mappings")),
        root);
  }

  private static JsonNode orEmpty(JsonNode node) {
    return node.isObject() ? node : MissingNode.getInstance();
  }
}
