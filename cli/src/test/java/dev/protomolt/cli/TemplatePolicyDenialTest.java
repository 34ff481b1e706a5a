package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.template.CloudFormationTemplate;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.RetryPolicy;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The local cloud enforces the template's IAM as AWS does: with one statement removed from the
 * prepare function's policy (its access to the platform bucket, where the account's PERSIST states
 * live), the parse hop's storage call is refused with AccessDenied, and the document dead-letters exactly as it would in
 * AWS: the execution fails as dead-lettered at that node, the dead letter is counted, and nothing
 * is stored past that hop.
 */
class TemplatePolicyDenialTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "denied";
  private static final String DATASOURCE = "uploads";

  @TempDir Path data;

  @Test
  void aFunctionWithoutItsGrantIsDeniedAndTheDocumentDeadLetters() throws Exception {
    ObjectNode template = (ObjectNode) JSON.readTree(LocalTemplate.json());
    int removed = removePlatformBucketAccess(template, "FunctionsPrepare");
    assertThat(removed).as("statements removed from prepare's policy").isEqualTo(1);

    try (LocalPlatform platform =
        LocalPlatform.start(
            LocalCloudSettings.ephemeral(data),
            CloudFormationTemplate.parse(template.toString()),
            0,
            0)) {
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      platform.applyAndActivate(
          quickToGiveUp(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER)));
      Map<String, byte[]> uploaded =
          IntakeUploads.upload(
              platform,
              ACCOUNT,
              DATASOURCE,
              Map.of("keeper.txt", "The lamp was lit at dusk.\n".getBytes(StandardCharsets.UTF_8)));
      String docId = uploaded.keySet().iterator().next();
      LocalPlatform.Admission admitted =
          Eventually.value(
              "the upload admitted",
              () ->
                  platform.admissions(ACCOUNT).stream()
                      .filter(a -> a.docId().equals(docId) && !a.executionArn().isEmpty())
                      .findFirst());
      DescribeExecutionResponse done =
          StepFunctionsExecutions.awaitClosed(platform.stepFunctions(), admitted.executionArn());
      assertThat(done.status()).isEqualTo(ExecutionStatus.FAILED);
      DispositionWatch watch = new DispositionWatch(docIds -> List.of(), platform.stepFunctions());
      assertThat(watch.endingOf(DemoGraph.GRAPH_ID, done))
          .isEqualTo(
              new DispositionWatch.Ending(
                  DemoGraph.GRAPH_ID, DemoGraph.PARSE, DispositionWatch.DEAD_LETTERED));

      String history =
          platform
              .stepFunctions()
              .getExecutionHistoryPaginator(b -> b.executionArn(done.executionArn()))
              .events()
              .stream()
              .map(e -> failure(e))
              .collect(Collectors.joining("\n"));
      assertThat(history)
          .as("the hop failed on the denied read, as AWS reports it")
          .contains("is not authorized to perform: s3:GetObject on resource: ")
          .contains("arn:aws:s3:::" + LocalPlatform.STORE_BUCKET + "/");
      assertThat(platform.metrics().records(PlatformMetric.DEAD_LETTERS_PUBLISHED))
          .as("the dlq function counted the dead letter")
          .isNotEmpty();
      assertThatThrownBy(() -> IntakeUploads.storedAt(platform, ACCOUNT, docId, DemoGraph.CHUNK))
          .as("nothing stored past the denied hop")
          .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    }
  }

  /**
   * The demo graph with one quick retry of the first hop: the denial is classified transient (IAM
   * propagation can cause it in AWS), so the default first-hop backoff would spend a minute
   * retrying it before the document dead-letters, and the test is about the dead letter.
   */
  private static PipelineGraph quickToGiveUp(PipelineGraph graph) {
    PipelineGraph.Builder quick = graph.toBuilder();
    quick
        .getSettingsBuilder()
        .setFirstHopRetry(RetryPolicy.newBuilder().setMaxAttempts(1).setInitialIntervalSeconds(1));
    // A filter that always passes keeps the parse node's own Prepare in the walk: without one, the
    // Complete before it prepares it under Complete's role (decision 1832), which is not denied.
    for (GraphNode.Builder node : quick.getNodesBuilderList()) {
      if (node.getNodeId().equals(DemoGraph.PARSE)) {
        node.addFilterConditions(
            FilterCondition.newBuilder()
                .setCondition("true")
                .setAction(FilterAction.FILTER_ACTION_SKIP)
                .setDescription("always passes"));
      }
    }
    return quick.build();
  }

  /** Every field of the event and its details, unredacted (the SDK's toString hides causes). */
  private static String failure(SdkPojo pojo) {
    StringBuilder out = new StringBuilder();
    for (SdkField<?> field : pojo.sdkFields()) {
      Object value = field.getValueOrDefault(pojo);
      if (value instanceof SdkPojo nested) {
        out.append(failure(nested));
      } else if (value != null) {
        out.append(value).append(' ');
      }
    }
    return out.toString();
  }

  /** Removes the statements of {@code functionPrefix}'s policies that grant reads of the platform bucket. */
  private static int removePlatformBucketAccess(ObjectNode template, String functionPrefix) {
    JsonNode resources = template.path("Resources");
    String role =
        resources.properties().stream()
            .filter(e -> e.getKey().startsWith(functionPrefix))
            .filter(e -> e.getValue().path("Type").asText().equals("AWS::Lambda::Function"))
            .map(
                e ->
                    e.getValue()
                        .path("Properties")
                        .path("Role")
                        .path("Fn::GetAtt")
                        .path(0)
                        .asText())
            .findFirst()
            .orElseThrow();
    int removed = 0;
    for (Map.Entry<String, JsonNode> e : resources.properties()) {
      JsonNode r = e.getValue();
      boolean ofRole = false;
      for (JsonNode ref : r.path("Properties").path("Roles")) {
        ofRole |= role.equals(ref.path("Ref").asText());
      }
      if (!r.path("Type").asText().equals("AWS::IAM::Policy") || !ofRole) {
        continue;
      }
      ArrayNode statements =
          (ArrayNode) r.path("Properties").path("PolicyDocument").path("Statement");
      for (Iterator<JsonNode> it = statements.iterator(); it.hasNext(); ) {
        JsonNode s = it.next();
        if (s.path("Action").toString().contains("s3:GetObject")
            && s.path("Resource").toString().contains("StoragePlatform")) {
          it.remove();
          removed++;
        }
      }
    }
    return removed;
  }
}
