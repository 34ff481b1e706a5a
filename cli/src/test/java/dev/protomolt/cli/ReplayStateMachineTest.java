package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * The replay state machine on the local cloud, started through the Step Functions API with the
 * hand-written JSON an operator pastes into the console: it pages the stored documents onto the
 * graph version, audits every page, a rerun of the same replay starts nothing new, and each bad
 * input fails the execution in its first state naming the field.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class ReplayStateMachineTest {

  static final String ACCOUNT = "console";
  static final String DATASOURCE = "shelf";
  static final String GRAPH = "console-replayed";
  // Its own graph, so its executions do not count among the other tests' ones.
  static final String INTERIOR_GRAPH = "console-interior";
  static final ObjectMapper JSON = new ObjectMapper();

  static LocalPlatform platform;
  static SfnClient sfn;
  static String machineArn;
  static long version;

  @BeforeAll
  static void storeThreeDocumentsAndActivateAGraph(SharedPlatform shared) {
    platform = shared.platform();
    sfn = platform.stepFunctions();
    machineArn = LocalPlatform.replayMachineArn(platform.endpoints().region());
    platform.provisionAccount(ACCOUNT, DATASOURCE);
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (String name : List.of("anchors.txt", "buoys.txt", "charts.txt")) {
      corpus.put(name, ("Harbour notes on " + name).getBytes(StandardCharsets.UTF_8));
    }
    // No graph reads the datasource yet: intake stores the copies and starts nothing.
    IntakeUploads.upload(platform, ACCOUNT, DATASOURCE, corpus);
    ReplayQuery query = new ReplayQuery(platform.database());
    StreamDocumentsForReplayRequest stored =
        StreamDocumentsForReplayRequest.newBuilder()
            .setAccountId(ACCOUNT)
            .setDatasourceId(DATASOURCE)
            .build();
    Eventually.until("the three intake copies are stored", () -> query.count(stored) == 3);
    version =
        platform.applyAndActivate(
            DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(GRAPH)
                .setName(GRAPH)
                .build());
    platform.applyAndActivate(
        DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId(INTERIOR_GRAPH)
            .setName(INTERIOR_GRAPH)
            .build());
  }

  @Test
  void aHandWrittenInputRunsToItsCountsAndARerunStartsNothingNew() throws Exception {
    String input =
        """
        {
          "replay_id": "harbour-notes",
          "requested_by": "operator@example.com",
          "account_id": "console",
          "selectors": {"datasource_id": "shelf"},
          "graph_id": "console-replayed",
          "graph_version": "active",
          "page_size": 2
        }
        """;
    DescribeExecutionResponse first = run(input);
    assertThat(first.status())
        .as("%s %s", first.error(), first.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = JSON.readTree(first.output());
    assertThat(output.path("plan").path("graph_version").asLong()).isEqualTo(version);
    assertThat(output.path("progress").path("candidates").asLong()).isEqualTo(3);
    assertThat(output.path("progress").path("counts").path("started").asLong()).isEqualTo(3);
    // Three candidates at two a page: a full page, then the last.
    assertThat(output.path("progress").path("pages").asLong()).isEqualTo(2);

    ReplayAudit audit = new ReplayAudit(platform.database());
    ReplayAudit.RunState recorded = audit.run(first.executionArn()).orElseThrow();
    assertThat(recorded.status()).isEqualTo("SUCCEEDED");
    assertThat(recorded.run().requestedBy()).isEqualTo("operator@example.com");
    assertThat(recorded.run().candidatesTotal()).isEqualTo(3);
    assertThat(recorded.counts()).containsExactlyEntriesOf(Map.of("started", 3L));
    assertThat(audit.pageRows(first.executionArn())).isEqualTo(2);

    String versionArn = output.path("plan").path("version_arn").asText();
    List<String> replayed =
        Eventually.valueWhen(
            "the three replayed executions closed",
            () ->
                sfn.listExecutions(b -> b.stateMachineArn(versionArn)).executions().stream()
                    .filter(e -> e.status() != ExecutionStatus.RUNNING)
                    .map(e -> e.status().toString())
                    .toList(),
            closed -> closed.size() == 3);
    assertThat(replayed).containsOnly("SUCCEEDED");

    DescribeExecutionResponse rerun = run(input);
    JsonNode again = JSON.readTree(rerun.output());
    assertThat(again.path("progress").path("counts").path("already_started").asLong()).isEqualTo(3);
    assertThat(again.path("progress").path("counts").has("started")).isFalse();
    assertThat(sfn.listExecutions(b -> b.stateMachineArn(versionArn)).executions()).hasSize(3);
  }

  @Test
  void anInteriorReplayEntersAtTheTargetNodeFromItsStoredCopies() throws Exception {
    // The documents first run the whole graph, which stores a copy at every node's address.
    DescribeExecutionResponse seed =
        run(
            """
            {"replay_id": "interior-seed", "account_id": "console",
             "selectors": {"datasource_id": "shelf"}, "graph_id": "console-interior"}
            """);
    String versionArn = JSON.readTree(seed.output()).path("plan").path("version_arn").asText();
    awaitClosed(versionArn);

    DescribeExecutionResponse interior =
        run(
            """
            {"replay_id": "from-embed", "account_id": "console",
             "selectors": {"datasource_id": "shelf"}, "graph_id": "console-interior",
             "target_node": "embed"}
            """);
    assertThat(interior.status())
        .as("%s %s", interior.error(), interior.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode counts = JSON.readTree(interior.output()).path("progress").path("counts");
    assertThat(counts.path("started").asLong()).as("%s", counts).isEqualTo(3);
    List<DescribeExecutionResponse> entered =
        awaitClosed(versionArn).stream()
            .map(e -> sfn.describeExecution(b -> b.executionArn(e)))
            .filter(d -> d.input().startsWith("{\"node\":\"embed\""))
            .toList();
    assertThat(entered).hasSize(3);
    for (DescribeExecutionResponse d : entered) {
      assertThat(d.status()).as("%s %s", d.error(), d.cause()).isEqualTo(ExecutionStatus.SUCCEEDED);
      List<String> states =
          history(d.executionArn()).stream()
              .filter(e -> e.stateEnteredEventDetails() != null)
              .map(e -> e.stateEnteredEventDetails().name())
              .toList();
      // The copy stored at the embed node's address enters there: parse and chunk never run.
      assertThat(states).noneMatch(n -> n.startsWith("parse") || n.startsWith("chunk"));
      assertThat(states).anyMatch(n -> n.startsWith("embed"));
    }
  }

  /** Every execution of {@code versionArn}, once none is running. */
  private static List<String> awaitClosed(String versionArn) {
    return Eventually.valueWhen(
            "every execution of " + versionArn + " closed",
            () -> sfn.listExecutions(b -> b.stateMachineArn(versionArn)).executions(),
            all -> all.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING))
        .stream()
        .map(e -> e.executionArn())
        .toList();
  }

  @Test
  void aDryRunCountsWhatWouldStartAndStartsNothing() throws Exception {
    DescribeExecutionResponse dry =
        run(
            """
            {"replay_id": "dry", "account_id": "console", "selectors": {"datasource_id": "shelf"},
             "graph_id": "console-replayed", "graph_version": %d, "dry_run": true}
            """
                .formatted(version));
    JsonNode counts = JSON.readTree(dry.output()).path("progress").path("counts");
    assertThat(counts.path("would_start").asLong()).isEqualTo(3);
    assertThat(counts.has("started")).isFalse();
  }

  @Test
  void eachRefusalFailsTheFirstStateNamingTheField() throws Exception {
    Map<String, String> refusals = new LinkedHashMap<>();
    refusals.put(
        "{\"graph_id\": \"console-replayed\", \"selectors\": {\"datasource_id\": \"shelf\"}}",
        "account_id: required");
    refusals.put(
        "{\"account_id\": \"console\", \"graph_id\": \"console-replayed\"}",
        "account_id: a bare account_id selects a whole tenant");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"no-such-graph\"}",
        "graph_id: graph 'no-such-graph' has no deployed version");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\", \"graph_version\": 99}",
        "graph_version: graph 'console-replayed' has no version 99");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\", \"target_node\": \"no-such-node\"}",
        "target_node: graph 'console-replayed' version " + version + " has no node 'no-such-node'");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"modified_after\":"
            + " \"2026-06-01T00:00:00Z\", \"modified_before\": \"2026-05-01T00:00:00Z\"},"
            + " \"graph_id\": \"console-replayed\"}",
        "selectors.modified_before: must be later than modified_after");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\", \"page_size\": 0}",
        "page_size: must be between 1 and 1000");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\", \"rate_per_second\": 5000}",
        "rate_per_second: must be between 0 (no limit) and 1000");
    refusals.put(
        "{\"account_id\": \"console\", \"selectors\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\", \"rate_per_second\": 1, \"page_size\": 100}",
        "page_size: at rate_per_second 1 a page of 100 would pace its starts for longer than 30 s");
    refusals.put(
        "{\"account_id\": \"console\", \"selector\": {\"datasource_id\": \"shelf\"},"
            + " \"graph_id\": \"console-replayed\"}",
        "selector: is not a replay input field");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      DescribeExecutionResponse failed = run(refusal.getKey());
      assertThat(failed.status()).as(refusal.getKey()).isEqualTo(ExecutionStatus.FAILED);
      assertThat(failed.error()).isEqualTo("dev.protomolt.engine.replay.ReplayRefused");
      assertThat(failed.cause()).as(refusal.getKey()).contains(refusal.getValue());
      List<String> entered =
          history(failed.executionArn()).stream()
              .filter(e -> e.stateEnteredEventDetails() != null)
              .map(e -> e.stateEnteredEventDetails().name())
              .toList();
      assertThat(entered).as(refusal.getKey()).containsExactly("Validate");
      assertThat(new ReplayAudit(platform.database()).run(failed.executionArn())).isEmpty();
    }
  }

  private static DescribeExecutionResponse run(String input) {
    String arn =
        sfn.startExecution(
                b -> b.stateMachineArn(machineArn).name("t-" + UUID.randomUUID()).input(input))
            .executionArn();
    return Eventually.valueWhen(
        "replay execution " + arn + " closed",
        () -> sfn.describeExecution(b -> b.executionArn(arn)),
        d -> d.status() != ExecutionStatus.RUNNING);
  }

  private static List<HistoryEvent> history(String arn) {
    return sfn.getExecutionHistory(b -> b.executionArn(arn).maxResults(1000)).events();
  }
}
