package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.ledger.SourceSettlement;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A replay of intake copies whose source was settled after indexing (SOURCE_RECEIPT, decision
 * 1524), on the local cloud through the replay state machine: the one whose intake object is
 * still there as the receipt says is fetched again and runs the graph; the one whose object is
 * gone and the one whose key now holds other bytes are counted and named, and start nothing.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class SourceReceiptReplayTest {

  static final String ACCOUNT = "receipts";
  static final String DATASOURCE = "drawer";
  static final String GRAPH = "console-receipts";
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aSettledSourceIsFetchedAgainWhenItsObjectIsStillWhatItWasAndReportedOtherwise(
      SharedPlatform shared) throws Exception {
    LocalPlatform platform = shared.platform();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (String name : List.of("kept.txt", "gone.txt", "changed.txt")) {
      corpus.put(name, ("Receipt notes on " + name).getBytes(StandardCharsets.UTF_8));
    }
    // No graph reads the datasource yet: intake stores the three copies and starts nothing.
    Map<String, byte[]> byDocId = IntakeUploads.upload(platform, ACCOUNT, DATASOURCE, corpus);
    List<String> docIds = List.copyOf(byDocId.keySet());
    String kept = docIds.get(0);
    String gone = docIds.get(1);
    String changed = docIds.get(2);
    ReplayQuery query = new ReplayQuery(platform.database());
    StreamDocumentsForReplayRequest stored =
        StreamDocumentsForReplayRequest.newBuilder()
            .setAccountId(ACCOUNT)
            .setDatasourceId(DATASOURCE)
            .build();
    Eventually.until("the three intake copies are stored", () -> query.count(stored) == 3);

    // Settlement after indexing husks each copy's BLOBS and deletes its intake object.
    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Clients clients =
        new S3Clients(
            Map.of(
                LocalPlatform.CREDENTIALS_REF,
                ObjectStoreSettings.staticKeys(ep.s3(), ep.accessKeyId(), ep.secretAccessKey())),
            List.of())) {
      SourceSettlement settlement =
          new SourceSettlement(
              platform.database(),
              new PostgresLedgerStore(platform.database()),
              new S3BlobStore(clients),
              new PostgresDriveDirectory(platform.database()),
              Clock.systemUTC());
      for (ReplayCandidate c : candidates(query, stored)) {
        assertThat(
                settlement
                    .settle(
                        UUID.fromString(c.getDocumentRef().getNodeId()),
                        ACCOUNT,
                        c.getDocumentRef().getDocId())
                    .settled())
            .isTrue();
      }
    }
    assertThat(candidates(query, stored))
        .extracting(ReplayCandidate::getEligibility)
        .containsOnly(ReplayEligibility.REPLAY_ELIGIBILITY_SOURCE_RECEIPT);

    // Put two objects back without intake seeing them (as a versioned bucket keeps the version
    // the receipt names): the same bytes under kept.txt, other bytes under changed.txt.
    try (S3Client s3 = shared.s3()) {
      var read = s3.getBucketNotificationConfiguration(b -> b.bucket(LocalPlatform.INTAKE_BUCKET));
      NotificationConfiguration rules =
          NotificationConfiguration.builder()
              .lambdaFunctionConfigurations(read.lambdaFunctionConfigurations())
              .topicConfigurations(read.topicConfigurations())
              .queueConfigurations(read.queueConfigurations())
              .build();
      List<software.amazon.awssdk.services.s3.model.LambdaFunctionConfiguration> others =
          new ArrayList<>(rules.lambdaFunctionConfigurations());
      assertThat(others.removeIf(r -> r.id().equals("protomolt-intake-" + ACCOUNT))).isTrue();
      NotificationConfiguration without =
          rules.toBuilder().lambdaFunctionConfigurations(others).build();
      s3.putBucketNotificationConfiguration(
          b -> b.bucket(LocalPlatform.INTAKE_BUCKET).notificationConfiguration(without));
      try {
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key("kept.txt")),
            RequestBody.fromBytes(corpus.get("kept.txt")));
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key("changed.txt")),
            RequestBody.fromString("Other bytes under the same key"));
      } finally {
        s3.putBucketNotificationConfiguration(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).notificationConfiguration(rules));
      }
    }

    platform.applyAndActivate(
        DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId(GRAPH)
            .setName(GRAPH)
            .build());
    SfnClient sfn = platform.stepFunctions();
    String machineArn = LocalPlatform.replayMachineArn(ep.region());
    // One candidate a page: the copy the run saves for the re-fetched source is newer than the
    // run's validation, so no later page reads it a second time.
    String input =
        """
        {"replay_id": "receipts-1", "account_id": "receipts",
         "selectors": {"datasource_id": "drawer"}, "graph_id": "console-receipts",
         "page_size": 1%s}
        """;

    JsonNode dry = output(run(sfn, machineArn, input.formatted(", \"dry_run\": true")));
    assertThat(dry.path("progress").path("counts"))
        .isEqualTo(
            JSON.readTree("{\"SOURCE_CHANGED\": 1, \"SOURCE_MISSING\": 1, \"would_refetch\": 1}"));

    DescribeExecutionResponse first = run(sfn, machineArn, input.formatted(""));
    JsonNode out = output(first);
    assertThat(out.path("progress").path("candidates").asLong()).isEqualTo(3);
    assertThat(out.path("progress").path("counts"))
        .isEqualTo(
            JSON.readTree(
                "{\"SOURCE_CHANGED\": 1, \"SOURCE_MISSING\": 1, \"source_refetched\": 1}"));
    List<String> named = new ArrayList<>();
    out.path("progress").path("unreplayed").forEach(n -> named.add(n.asText()));
    assertThat(named)
        .containsExactlyInAnyOrder(gone + ": SOURCE_MISSING", changed + ": SOURCE_CHANGED");
    assertThat(
            new ReplayAudit(platform.database()).run(first.executionArn()).orElseThrow().counts())
        .isEqualTo(Map.of("SOURCE_CHANGED", 1L, "SOURCE_MISSING", 1L, "source_refetched", 1L));

    String versionArn = out.path("plan").path("version_arn").asText();
    DescribeExecutionResponse replayed =
        Eventually.valueWhen(
                "the re-fetched document's execution closed",
                () ->
                    sfn.listExecutions(b -> b.stateMachineArn(versionArn)).executions().stream()
                        .filter(e -> e.status() != ExecutionStatus.RUNNING)
                        .map(e -> sfn.describeExecution(b -> b.executionArn(e.executionArn())))
                        .toList(),
                closed -> closed.size() == 1)
            .getFirst();
    assertThat(replayed.status())
        .as("%s %s", replayed.error(), replayed.cause())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(replayed.input()).contains(kept);

    // A rerun converges: the re-fetched copy is replayable now and already started; the lost
    // sources are reported again.
    JsonNode again = output(run(sfn, machineArn, input.formatted("")));
    assertThat(again.path("progress").path("counts"))
        .isEqualTo(
            JSON.readTree(
                "{\"SOURCE_CHANGED\": 1, \"SOURCE_MISSING\": 1, \"already_started\": 1}"));
    assertThat(sfn.listExecutions(b -> b.stateMachineArn(versionArn)).executions()).hasSize(1);
  }

  private static String key(String name) {
    return ACCOUNT + "/" + DATASOURCE + "/" + name;
  }

  private static List<ReplayCandidate> candidates(
      ReplayQuery query, StreamDocumentsForReplayRequest request) {
    List<ReplayCandidate> found = new ArrayList<>();
    query.stream(request, found::add);
    return found;
  }

  private static JsonNode output(DescribeExecutionResponse d) throws Exception {
    assertThat(d.status()).as("%s %s", d.error(), d.cause()).isEqualTo(ExecutionStatus.SUCCEEDED);
    return JSON.readTree(d.output());
  }

  private static DescribeExecutionResponse run(SfnClient sfn, String machineArn, String input) {
    String arn =
        sfn.startExecution(
                b -> b.stateMachineArn(machineArn).name("t-" + UUID.randomUUID()).input(input))
            .executionArn();
    return Eventually.valueWhen(
        "replay execution " + arn + " closed",
        () -> sfn.describeExecution(b -> b.executionArn(arn)),
        d -> d.status() != ExecutionStatus.RUNNING);
  }
}
