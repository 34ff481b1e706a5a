package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.cdk.constructs.PipelineFunctions;
import dev.protomolt.names.PlatformMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The synthesized stacks set only variables the code reads, set every one it needs, alarm on
 * metrics the code emits and name topics the code uses; and each kind of seeded drift in a copy of
 * the dev template is found and named.
 */
class StackDriftTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void devAndProdHaveNoDrift() {
    assertThat(StackDrift.find(json(TestEnvironments.dev()))).isEmpty();
    assertThat(StackDrift.find(json(Template.fromStack(TestEnvironments.build("prod"))))).isEmpty();
  }

  @Test
  void aVariableNoCodeReadsIsNamedWithItsFunction() {
    ObjectNode template = devCopy();
    ObjectNode intake = function(template, "intake");
    ((ObjectNode) intake.path("Properties").path("Environment").path("Variables"))
        .put("PROTOMOLT_BOGUS_SETTING", "x");

    assertThat(StackDrift.find(template))
        .singleElement()
        .asString()
        .contains("(intake) sets PROTOMOLT_BOGUS_SETTING, which no code reads");
  }

  @Test
  void aVariableSetOnAFunctionThatDoesNotReadItIsNamed() {
    ObjectNode template = devCopy();
    ((ObjectNode)
            function(template, "intake").path("Properties").path("Environment").path("Variables"))
        .put("PROTOMOLT_EXECUTION_ROLE_ARN", "arn:aws:iam::123456789012:role/x");

    assertThat(StackDrift.find(template))
        .singleElement()
        .asString()
        .contains("sets PROTOMOLT_EXECUTION_ROLE_ARN, which intake does not read");
  }

  @Test
  void aVariableTheCodeNeedsButTheStackDropsIsNamed() {
    ObjectNode template = devCopy();
    ((ObjectNode)
            function(template, "graph-admin")
                .path("Properties")
                .path("Environment")
                .path("Variables"))
        .remove("PROTOMOLT_DLQ_FUNCTION_ARN");
    ArrayNode gatewayEnv = gatewayEnvironment(template);
    for (int i = 0; i < gatewayEnv.size(); i++) {
      if (gatewayEnv.get(i).path("Name").asText().equals("PROTOMOLT_GATEWAY_MODULES")) {
        gatewayEnv.remove(i);
        break;
      }
    }

    assertThat(StackDrift.find(template))
        .hasSize(2)
        .anySatisfy(
            d ->
                assertThat(d)
                    .contains("code reads PROTOMOLT_DLQ_FUNCTION_ARN on function")
                    .contains("(graph-admin) but the stack does not set it"))
        .anySatisfy(
            d ->
                assertThat(d)
                    .contains("code reads PROTOMOLT_GATEWAY_MODULES on gateway task")
                    .endsWith("but the stack does not set it"));
  }

  @Test
  void aMetricNoCodeEmitsAndATopicNoCodeUsesAreNamed() {
    ObjectNode template = devCopy();
    ObjectNode resources = (ObjectNode) template.path("Resources");
    ObjectNode alarm = resources.putObject("BogusAlarm");
    alarm.put("Type", "AWS::CloudWatch::Alarm");
    alarm
        .putObject("Properties")
        .put("Namespace", "ProtoMolt")
        .put("MetricName", "DocumentsEaten")
        .putArray("Dimensions")
        .addObject()
        .put("Name", "Environment")
        .put("Value", "dev");
    resources.properties().stream()
        .filter(e -> e.getValue().path("Type").asText().equals("Custom::ProtoMoltKafkaTopics"))
        .findFirst()
        .map(e -> (ArrayNode) e.getValue().path("Properties").path("topics"))
        .orElseThrow()
        .addObject()
        .put("name", "orphan-events")
        .put("partitions", 1);

    List<String> drift = StackDrift.find(template);

    assertThat(drift)
        .hasSize(2)
        .anySatisfy(
            d ->
                assertThat(d)
                    .isEqualTo("alarm BogusAlarm reads metric DocumentsEaten, which no code emits"))
        .anySatisfy(d -> assertThat(d).endsWith("names topic orphan-events, which no code uses"));
  }

  @Test
  void theGatewaysScalingExpressionsReadOnlyMetricsTheCodeEmits() {
    ObjectNode template = devCopy();
    // Dev may scale to zero: its per-task backlog and wake-up alarms are metric math over
    // GatewayTaskBacklog and ModuleDispatches (decision 1654); renaming one is drift.
    List<ObjectNode> read = new ArrayList<>();
    template
        .path("Resources")
        .forEach(
            r -> {
              if (r.path("Type").asText().equals("AWS::CloudWatch::Alarm")) {
                r.path("Properties")
                    .path("Metrics")
                    .forEach(
                        m -> {
                          if (m.path("MetricStat").has("Metric")) {
                            read.add((ObjectNode) m.path("MetricStat").path("Metric"));
                          }
                        });
              }
            });
    assertThat(read)
        .extracting(m -> m.path("MetricName").asText())
        .contains(
            PlatformMetric.GATEWAY_TASK_BACKLOG.metricName(),
            PlatformMetric.MODULE_DISPATCHES.metricName());
    assertThat(StackDrift.find(template)).isEmpty();

    read.stream()
        .filter(
            m ->
                m.path("MetricName").asText().equals(PlatformMetric.MODULE_DISPATCHES.metricName()))
        .forEach(m -> m.put("MetricName", "ModuleDispatchesTypo"));

    assertThat(StackDrift.find(template))
        .isNotEmpty()
        .allSatisfy(
            d -> assertThat(d).endsWith("reads metric ModuleDispatchesTypo, which no code emits"));
  }

  @Test
  void aPlatformTopicTheStackDoesNotCreateIsNamed() {
    ObjectNode template = devCopy();
    ArrayNode topics =
        template.path("Resources").properties().stream()
            .filter(e -> e.getValue().path("Type").asText().equals("Custom::ProtoMoltKafkaTopics"))
            .findFirst()
            .map(e -> (ArrayNode) e.getValue().path("Properties").path("topics"))
            .orElseThrow();
    for (int i = 0; i < topics.size(); i++) {
      if (topics.get(i).path("name").asText().equals("indexing-receipts")) {
        topics.remove(i);
        break;
      }
    }

    assertThat(StackDrift.find(template))
        .containsExactly(
            "code uses topic indexing-receipts but the stack's topics resource does not create it");
  }

  private static JsonNode json(Template template) {
    return JSON.valueToTree(template.toJSON());
  }

  private static ObjectNode devCopy() {
    return (ObjectNode) json(TestEnvironments.dev()).deepCopy();
  }

  private static ObjectNode function(ObjectNode template, String handler) {
    for (Map.Entry<String, JsonNode> e : template.path("Resources").properties()) {
      JsonNode props = e.getValue().path("Properties");
      if (e.getValue().path("Type").asText().equals("AWS::Lambda::Function")
          && props.path("Handler").asText().equals(PipelineFunctions.QUARKUS_HANDLER)
          && props
              .path("Environment")
              .path("Variables")
              .path("QUARKUS_LAMBDA_HANDLER")
              .asText()
              .equals(handler)) {
        return (ObjectNode) e.getValue();
      }
    }
    throw new AssertionError("no function runs handler " + handler);
  }

  private static ArrayNode gatewayEnvironment(ObjectNode template) {
    for (Map.Entry<String, JsonNode> e : template.path("Resources").properties()) {
      if (e.getValue().path("Type").asText().equals("AWS::ECS::TaskDefinition")) {
        return (ArrayNode)
            e.getValue().path("Properties").path("ContainerDefinitions").get(0).path("Environment");
      }
    }
    throw new AssertionError("no task definition");
  }
}
