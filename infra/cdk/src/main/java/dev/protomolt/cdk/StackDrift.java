package dev.protomolt.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.cdk.constructs.PipelineFunctions;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.names.PlatformVariable.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a synthesized template and the code disagree: a variable the stack sets that its reader
 * does not read, a variable the code needs that the stack does not set, a metric an alarm reads
 * that no code emits, a topic the stack creates or maps that no code uses (and a platform topic the
 * stack does not create). What the code reads, emits and uses comes from its own definitions
 * ({@link PlatformVariable}, {@link PlatformMetric}, {@link PlatformTopic}), never from a list kept
 * here.
 */
public final class StackDrift {

  private StackDrift() {}

  /** Every disagreement in {@code template} (CloudFormation JSON), one sentence each. */
  public static List<String> find(JsonNode template) {
    List<String> drift = new ArrayList<>();
    JsonNode resources = template.path("Resources");
    Set<String> createdTopics = new LinkedHashSet<>();
    resources
        .properties()
        .forEach(
            e -> {
              String id = e.getKey();
              JsonNode resource = e.getValue();
              JsonNode props = resource.path("Properties");
              switch (resource.path("Type").asText()) {
                case "AWS::Lambda::Function" -> checkFunction(id, props, drift);
                case "AWS::ECS::TaskDefinition" -> checkGateway(id, props, drift);
                case "AWS::CloudWatch::Alarm" -> checkAlarm(id, props, drift);
                case "Custom::ProtoMoltKafkaTopics" ->
                    props
                        .path("topics")
                        .forEach(
                            t -> {
                              createdTopics.add(t.path("name").asText());
                              checkTopic(id, t.path("name").asText(), drift);
                            });
                case "AWS::Lambda::EventSourceMapping" ->
                    props.path("Topics").forEach(t -> checkTopic(id, t.asText(), drift));
                default -> {}
              }
            });
    for (PlatformTopic topic : PlatformTopic.values()) {
      if (!createdTopics.contains(topic.topicName())) {
        drift.add(
            "code uses topic "
                + topic.topicName()
                + " but the stack's topics resource does not create it");
      }
    }
    return drift;
  }

  private static void checkFunction(String id, JsonNode props, List<String> drift) {
    // CDK's own functions (custom resource providers) run CDK's code and read CDK's variables.
    if (!PipelineFunctions.QUARKUS_HANDLER.equals(props.path("Handler").asText())) {
      return;
    }
    Map<String, JsonNode> env = variables(props.path("Environment").path("Variables"));
    JsonNode handlerNode = env.get(PlatformVariable.QUARKUS_LAMBDA_HANDLER.key());
    String handler = handlerNode == null ? "?" : handlerNode.asText();
    String who = "function " + id + " (" + handler + ")";
    check(who, Reader.FUNCTIONS, handler, env.keySet(), drift);
  }

  private static void checkGateway(String id, JsonNode props, List<String> drift) {
    for (JsonNode container : props.path("ContainerDefinitions")) {
      Set<String> keys = new LinkedHashSet<>();
      container.path("Environment").forEach(v -> keys.add(v.path("Name").asText()));
      check(
          "gateway task " + id + " container " + container.path("Name").asText(),
          Reader.GATEWAY,
          "gateway",
          keys,
          drift);
    }
  }

  private static void check(
      String who, Reader reader, String handler, Set<String> keys, List<String> drift) {
    for (String key : keys) {
      var known = PlatformVariable.byKey(key);
      if (known.isEmpty()) {
        drift.add(who + " sets " + key + ", which no code reads");
      } else if (!known.get().isReadBy(reader, handler)) {
        drift.add(who + " sets " + key + ", which " + handler + " does not read");
      }
    }
    for (PlatformVariable v : PlatformVariable.values()) {
      if (v.isSetByStackOn(reader, handler) && !keys.contains(v.key())) {
        drift.add("code reads " + v.key() + " on " + who + " but the stack does not set it");
      }
    }
  }

  private static void checkAlarm(String id, JsonNode props, List<String> drift) {
    List<JsonNode> metrics = new ArrayList<>();
    if (props.has("MetricName")) {
      metrics.add(props);
    }
    props.path("Metrics").forEach(m -> metrics.add(m.path("MetricStat").path("Metric")));
    for (JsonNode metric : metrics) {
      if (!PlatformMetric.NAMESPACE.equals(metric.path("Namespace").asText())) {
        continue;
      }
      String name = metric.path("MetricName").asText();
      if (PlatformMetric.byName(name).isEmpty()) {
        drift.add("alarm " + id + " reads metric " + name + ", which no code emits");
      }
      for (JsonNode d : metric.path("Dimensions")) {
        String dim = d.path("Name").asText();
        if (!PlatformMetric.isDimension(dim)) {
          drift.add(
              "alarm " + id + " reads metric " + name + " by dimension " + dim + ", never emitted");
        }
      }
    }
  }

  private static void checkTopic(String id, String topic, List<String> drift) {
    if (PlatformTopic.byName(topic).isEmpty()
        && !topic.startsWith(PlatformTopic.MODULE_TOPIC_PREFIX)) {
      drift.add(id + " names topic " + topic + ", which no code uses");
    }
  }

  private static Map<String, JsonNode> variables(JsonNode node) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    node.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }
}
