package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Two replays of the same stored documents started at once, as an operator replaying while
 * another replay is still running: two executions per document write the same deterministic
 * addresses at the same time. Every execution must succeed, none may dead-letter, no hop may ever
 * meet an unreadable part (not even one a retry hid), and every stored state must read back whole
 * afterwards (decision 1600).
 *
 * <p>{@code -Dreplays.documents=N} sets the corpus size (40 by default; the {@code scale} profile of
 * the cli pom runs the 300 of the original report).
 */
@ExtendWith(SharedPlatform.Resolver.class)
class ConcurrentReplaysTest {

  static final int DOCUMENTS = Integer.getInteger("replays.documents", 40);
  static final String ACCOUNT = "racers";
  static final String DATASOURCE = "racers-docs";
  static final List<String> REPLAYS = List.of("race-1", "race-2");

  /**
   * How long the run may go without one more execution ending before it is called stuck: a bound
   * for failing, never a measurement; on a loaded machine the whole run takes what it takes.
   */
  static final Duration STALL = Duration.ofSeconds(90);

  static final Pattern VERSION_ARN = Pattern.compile("\\((arn:aws:states:[^)]+)\\)");

  /** Its own graph id: graph ids and their state machines are global on the shared platform. */
  static final String GRAPH = "racers-demo";

  static Path data;
  static LocalPlatform platform;

  @BeforeAll
  static void provision(SharedPlatform shared) {
    platform = shared.platform();
    data = shared.data();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
  }

  @Test
  void twoReplaysOfTheSameDocumentsAtOnceNeverMeetATornState() throws Exception {
    long version =
        platform.applyAndActivate(
            DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId(GRAPH)
                .build());
    Map<String, byte[]> uploaded = IntakeUploads.upload(platform, ACCOUNT, DATASOURCE, corpus());
    // The first pass stores every hop's copy; the replays then rewrite those same addresses.
    awaitIngested(version, uploaded.keySet());

    CountDownLatch go = new CountDownLatch(1);
    List<Future<CommandRun>> runs = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(REPLAYS.size())) {
      for (String replayId : REPLAYS) {
        runs.add(
            pool.submit(
                () -> {
                  go.await();
                  return CommandRun.of(
                      "replay",
                      "--gateway",
                      "127.0.0.1:" + platform.gatewayPort(),
                      "--gateway-ca",
                      platform.gatewayCa().toString(),
                      "--wait",
                      "--account",
                      ACCOUNT,
                      "--graph",
                      GRAPH,
                      "--datasource",
                      DATASOURCE,
                      "--replay-id",
                      replayId,
                      "--data",
                      data.toString());
                }));
      }
      go.countDown();
    }
    String versionArn = null;
    for (Future<CommandRun> f : runs) {
      CommandRun run = f.get();
      assertThat(run.status()).as("%s", run).isZero();
      assertThat(run.out())
          .contains("candidates " + DOCUMENTS + ", started " + DOCUMENTS + ", already started 0");
      Matcher arn = VERSION_ARN.matcher(run.out());
      assertThat(arn.find()).as("%s", run).isTrue();
      versionArn = arn.group(1);
    }

    Map<String, String> docByExecutionName = new HashMap<>();
    for (String replayId : REPLAYS) {
      for (String docId : uploaded.keySet()) {
        docByExecutionName.put(
            StateMachineNames.hashOf(
                "replay", replayId, ACCOUNT, DATASOURCE, docId, GRAPH, Long.toString(version)),
            docId);
      }
    }
    List<DescribeExecutionResponse> ended = awaitReplays(versionArn, docByExecutionName.keySet());

    ObjectMapper json = new ObjectMapper();
    int partUnreadableEvents = 0;
    for (DescribeExecutionResponse d : ended) {
      String docId = docByExecutionName.get(d.name());
      assertThat(d.status())
          .as("replay execution of %s: %s %s", docId, d.error(), d.cause())
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(json.readTree(d.output()).path("disposition").asText())
          .as("replay execution of %s", docId)
          .isEqualTo("SINK_REACHED");
      for (HistoryEvent event : history(d.executionArn())) {
        if (event.toString().contains("PartUnreadable")) {
          partUnreadableEvents++;
        }
      }
    }
    assertThat(partUnreadableEvents).as("history events naming PartUnreadable").isZero();

    // Every hop's stored state reads back whole and still carries the uploaded bytes.
    uploaded.forEach(
        (docId, bytes) -> IntakeUploads.storedAtEveryHop(platform, ACCOUNT, GRAPH, docId, bytes));
    System.out.println("ConcurrentReplaysTest: " + DOCUMENTS + " documents, " + superseded());
  }

  /** Small plain-text documents, each with its own words. */
  private static Map<String, byte[]> corpus() {
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (int i = 0; i < DOCUMENTS; i++) {
      StringBuilder text = new StringBuilder("Replayed document ").append(i).append("\n\n");
      for (int w = 0; w < 40 + (i * 37) % 300; w++) {
        text.append("word").append((i * 7 + w) % 53).append(w % 12 == 11 ? ".\n" : " ");
      }
      corpus.put(
          String.format("race-%03d.txt", i), text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return corpus;
  }

  /** Waits for every document's first execution to end successfully. */
  private static void awaitIngested(long version, Set<String> docIds) {
    assertThat(IntakeUploads.awaitEnded(platform, ACCOUNT, version, docIds, STALL).values())
        .extracting(DescribeExecutionResponse::status)
        .allMatch(s -> s == ExecutionStatus.SUCCEEDED);
  }

  /** Polls the version's executions until every replay execution has ended. */
  private static List<DescribeExecutionResponse> awaitReplays(
      String versionArn, Set<String> names) {
    Map<String, DescribeExecutionResponse> ended = new HashMap<>();
    Eventually.whileProgressing(
        "every replay execution to end",
        STALL,
        () -> {
          for (ExecutionListItem e :
              platform
                  .stepFunctions()
                  .listExecutionsPaginator(b -> b.stateMachineArn(versionArn).maxResults(1000))
                  .executions()) {
            if (names.contains(e.name())
                && !ended.containsKey(e.name())
                && e.status() != ExecutionStatus.RUNNING) {
              ended.put(
                  e.name(),
                  platform
                      .stepFunctions()
                      .describeExecution(b -> b.executionArn(e.executionArn())));
            }
          }
          return ended.size();
        },
        n -> n,
        n -> n == names.size());
    return new ArrayList<>(ended.values());
  }

  private static List<HistoryEvent> history(String executionArn) {
    List<HistoryEvent> events = new ArrayList<>();
    platform
        .stepFunctions()
        .getExecutionHistoryPaginator(b -> b.executionArn(executionArn).maxResults(1000))
        .events()
        .forEach(events::add);
    return events;
  }

  /** How the replays' saves met at their addresses, from the store's own bookkeeping. */
  private static String superseded() throws Exception {
    PGSimpleDataSource db = new PGSimpleDataSource();
    db.setURL(platform.endpoints().postgresJdbcUrl());
    db.setUser(platform.endpoints().postgresUser());
    db.setPassword(platform.endpoints().postgresPassword());
    StringBuilder out = new StringBuilder("superseded states:");
    try (Connection c = db.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT reason, count(*) FROM pipedoc_superseded GROUP BY reason ORDER BY"
                    + " reason")) {
      while (rs.next()) {
        out.append(' ').append(rs.getString(1)).append('=').append(rs.getLong(2));
      }
    }
    return out.toString();
  }
}
