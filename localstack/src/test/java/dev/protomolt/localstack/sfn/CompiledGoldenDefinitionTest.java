package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.asl.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The graph compiler's committed golden definitions (statemachines/golden) on this runtime: every
 * one is accepted by CreateStateMachine, and the three-way fan-out graph runs end to end with
 * Lambdas and a gateway that follow the state contract in statemachines/README.md (Prepare →
 * Work by task token → Complete → Next, children started on the pinned version, dispositions),
 * and a module Reject ends as a recorded REJECTED disposition.
 */
class CompiledGoldenDefinitionTest {

  private static final Path GOLDEN = Path.of("..", "statemachines", "golden");
  private static SfnFixture sfn;

  /** What the dispatch Lambda handed to the "module": the waiting task's token and payload. */
  private static final LinkedBlockingQueue<JsonNode> DISPATCHED = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start() {
    sfn = SfnFixture.start();
    sfn.lambdas.register(
        "prepare",
        payload -> {
          JsonNode p = Json.parse(payload);
          ObjectNode result = Json.object();
          result.put("action", "RUN");
          result.put("workUnitId", "wu-" + p.get("nodeId").asText());
          result.set("stream", p.get("stream"));
          return Json.print(result);
        });
    sfn.lambdas.register(
        "dispatch",
        payload -> {
          DISPATCHED.add(Json.parse(payload));
          return "{}";
        });
    sfn.lambdas.register("complete", payload -> Json.print(complete(Json.parse(payload))));
    sfn.lambdas.register("dlq", payload -> "{\"dlqId\":\"dlq-1\"}");
  }

  @AfterAll
  static void stop() {
    sfn.close();
  }

  /** The fan-out graph's routing, as the Complete Lambda would compute it from the graph. */
  private static ObjectNode complete(JsonNode p) {
    String node = p.get("nodeId").asText();
    String workUnit = p.has("workUnitId") ? p.get("workUnitId").asText() : "wu-admitted";
    List<String> targets =
        switch (node) {
          case "intake" -> List.of("parser");
          case "parser" -> List.of("archive", "chunker-small", "summarizer");
          case "chunker-small" -> List.of("vector-index");
          case "summarizer" -> List.of("summary-index");
          default -> List.of();
        };
    if ("REJECTED".equals(p.path("outcome").asText())) {
      targets = List.of();
    }
    ObjectNode result = Json.object();
    result.put("node", targets.size() == 1 ? targets.getFirst() : "");
    result.put("workUnitId", workUnit);
    result.put("destinationCount", targets.size());
    result.set("stream", targets.size() == 1 ? p.get("stream") : Json.NODES.nullNode());
    ArrayNode destinations = result.putArray("destinations");
    if (targets.size() > 1) {
      for (int i = 0; i < targets.size(); i++) {
        ObjectNode d = destinations.addObject();
        d.put("node", targets.get(i));
        d.set("stream", p.get("stream"));
        d.put("executionName", workUnit + "-" + i);
      }
    }
    // This graph has no memoized node: nothing skipped, nothing reused.
    result.putArray("memoized");
    result.put("skipped", false);
    JsonNode handOn = p.get("dispatchNext");
    boolean direct = p.path("directNext").asBoolean(false);
    if (targets.size() == 1
        && (direct
            || (handOn != null && targets.getFirst().equals(handOn.path("nodeId").asText())))) {
      // The one target is prepared here (decisions 1832, 1834) and, when the state waits on its
      // token, its work dispatched here too (1842, 1843).
      String target = targets.getFirst();
      result.put("prepared", true);
      result.put("workUnitId", "wu-" + target);
      if (p.has("dispatchNext")) {
        ObjectNode work = p.get("dispatchNext").deepCopy();
        work.put("nodeId", target);
        work.put("workUnitId", "wu-" + target);
        work.set("stream", p.get("stream"));
        DISPATCHED.add(work);
      }
      if (p.has("error")) {
        result.set("error", p.get("error"));
      }
      return result;
    }
    // Otherwise this stand-in never prepares the next node itself (decision 1832): each node's
    // own Prepare runs.
    result.put("prepared", false);
    if (handOn != null) {
      // A waiting Complete that hands nothing on answers its own token (decision 1843).
      String answer = Json.print(result);
      sfn.client.sendTaskSuccess(b -> b.taskToken(handOn.get("taskToken").asText()).output(answer));
    }
    return result;
  }

  private static String substituted(String definition, String versionArn) {
    return definition
        .replace("${PrepareFunctionArn}", "arn:aws:lambda:eu-west-1:000000000000:function:prepare")
        .replace(
            "${DispatchFunctionArn}", "arn:aws:lambda:eu-west-1:000000000000:function:dispatch")
        .replace(
            "${CompleteFunctionArn}", "arn:aws:lambda:eu-west-1:000000000000:function:complete")
        .replace("${DlqFunctionArn}", "arn:aws:lambda:eu-west-1:000000000000:function:dlq")
        .replace("${StateMachineVersionArn}", versionArn);
  }

  private static String golden(String name) throws IOException {
    return Files.readString(
        GOLDEN.resolve(name).resolve("expected.asl.json"), StandardCharsets.UTF_8);
  }

  /** Creates the machine, then publishes version 1 whose definition names its own version ARN. */
  private static String publishPinned(String name, String definition) {
    String machine =
        sfn.createMachine(
            name,
            substituted(
                definition, "arn:aws:states:eu-west-1:000000000000:stateMachine:placeholder:1"));
    String version = machine + ":1";
    sfn.client.updateStateMachine(
        b -> b.stateMachineArn(machine).definition(substituted(definition, version)).publish(true));
    return version;
  }

  @Test
  void everyGoldenDefinitionIsAcceptedByCreateStateMachine() throws IOException {
    List<Path> cases;
    try (Stream<Path> dirs = Files.list(GOLDEN)) {
      cases = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(cases).hasSizeGreaterThanOrEqualTo(7);
    for (Path dir : cases) {
      String name = dir.getFileName().toString();
      assertThat(
              sfn.createMachine(
                  "golden-" + name,
                  substituted(
                      golden(name), "arn:aws:states:eu-west-1:000000000000:stateMachine:x:1")))
          .as(name)
          .contains("golden-" + name);
    }
  }

  @Test
  void theFanOutGoldenRunsEndToEndOnThePinnedVersion() throws Exception {
    String version = publishPinned("golden-run-fan-out", golden("fan-out-mixed-edges"));
    String execution =
        sfn.client
            .startExecution(
                b ->
                    b.stateMachineArn(version)
                        .name("admitted-1")
                        .input("{\"node\":\"intake\",\"stream\":{\"streamId\":\"s-1\"}}"))
            .executionArn();

    // The gateway: complete every dispatched work unit as the module's CONTINUE ack would.
    for (int completed = 0; completed < 6; completed++) {
      JsonNode work = DISPATCHED.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertThat(work).as("work unit %d dispatched", completed).isNotNull();
      assertThat(work.get("heartbeatSeconds").asInt()).isEqualTo(30);
      ObjectNode ack = Json.object();
      ack.put("workUnitId", work.get("workUnitId").asText());
      ack.put("outcome", "CONTINUE");
      ack.set("stream", work.get("stream"));
      sfn.client.sendTaskSuccess(
          b -> b.taskToken(work.get("taskToken").asText()).output(Json.print(ack)));
    }

    DescribeExecutionResponse parent = sfn.awaitClosed(execution);
    assertThat(parent.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = Json.parse(parent.output());
    assertThat(output.get("disposition").asText()).isEqualTo("FANNED_OUT");
    assertThat(output.get("node").asText()).isEqualTo("parser");
    assertThat(output.get("children")).hasSize(3);

    String machine = version.substring(0, version.lastIndexOf(':'));
    SfnFixture.awaitTrue(
        () ->
            sfn.client
                    .listExecutions(
                        b -> b.stateMachineArn(machine).statusFilter(ExecutionStatus.SUCCEEDED))
                    .executions()
                    .size()
                == 4,
        "the three children to finish");
    List<ExecutionListItem> children =
        sfn.client.listExecutions(b -> b.stateMachineArn(machine)).executions().stream()
            .filter(e -> e.name().startsWith("wu-parser-"))
            .toList();
    assertThat(children)
        .extracting(ExecutionListItem::name)
        .containsExactlyInAnyOrder("wu-parser-0", "wu-parser-1", "wu-parser-2");
    for (ExecutionListItem child : children) {
      DescribeExecutionResponse done =
          sfn.client.describeExecution(b -> b.executionArn(child.executionArn()));
      assertThat(done.stateMachineVersionArn()).isEqualTo(version);
      assertThat(Json.parse(done.output()).get("disposition").asText())
          .as(child.name())
          .isEqualTo("SINK_REACHED");
    }
  }

  @Test
  void aModuleRejectEndsAsARecordedRejectedDisposition() throws Exception {
    String version = publishPinned("golden-run-reject", golden("linear"));
    String execution =
        sfn.client
            .startExecution(
                b ->
                    b.stateMachineArn(version)
                        .name("rejected-1")
                        .input("{\"node\":\"parser\",\"stream\":{\"streamId\":\"s-2\"}}"))
            .executionArn();

    JsonNode work = DISPATCHED.poll(SfnFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(work).isNotNull();
    sfn.client.sendTaskFailure(
        b ->
            b.taskToken(work.get("taskToken").asText())
                .error("Module.Reject")
                .cause("{\"reason\":\"UNSUPPORTED_CONTENT\",\"detail\":\"encrypted pdf\"}"));

    DescribeExecutionResponse done = sfn.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(Json.parse(done.output()).get("disposition").asText()).isEqualTo("REJECTED");
    JsonNode recorded = Json.parse(sfn.lambdas.invocationsOf("complete").getLast().payload());
    assertThat(recorded.get("outcome").asText()).isEqualTo("REJECTED");
    assertThat(recorded.get("error").get("Error").asText()).isEqualTo("Module.Reject");
    assertThat(recorded.get("workUnitId").asText()).isEqualTo("wu-parser");
  }
}
