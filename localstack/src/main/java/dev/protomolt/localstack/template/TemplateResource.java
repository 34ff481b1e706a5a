package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;

/** One entry of a template's {@code Resources}, as written (intrinsics unresolved). */
public record TemplateResource(
    String logicalId, String type, JsonNode properties, List<String> dependsOn, String condition) {

  public TemplateResource {
    properties = properties == null ? MissingNode.getInstance() : properties;
    dependsOn = List.copyOf(dependsOn);
  }
}
