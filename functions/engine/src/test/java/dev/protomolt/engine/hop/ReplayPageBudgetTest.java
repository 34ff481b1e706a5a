package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.SampleGraphs;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.replay.ReplayInput;
import dev.protomolt.engine.replay.ReplayPages;
import dev.protomolt.engine.replay.ReplayPlan;
import dev.protomolt.engine.replay.ReplayProgress;
import dev.protomolt.engine.replay.SourceRefetch;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3UploadObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replay page whose starts are slow stops at its time budget instead of outliving the function's
 * timeout, and the next page reads on after the last candidate it decided: every candidate is
 * started exactly once. The store, the ledger and Step Functions are real (S3Proxy, embedded
 * PostgreSQL, the local runtime, beside the hop harness); only the page's clock is the test's,
 * advanced by each start as a loaded machine's StartExecution latency would.
 */
class ReplayPageBudgetTest {

  private static final String GRAPH = "g-budget";
  private static final int DOCUMENTS = 5;

  /** Each start costs this much of the page's budget. */
  private static final Duration START_LATENCY = Duration.ofSeconds(12);

  private HopHarness h;
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-03-01T12:00:00Z"));
  private final List<String> started = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new HopHarness();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aPageStopsAtItsBudgetAndTheNextReadsOnAfterTheLastCandidateItDecided() throws Exception {
    PipelineGraph graph = SampleGraphs.linear(GRAPH, 0);
    long version = h.admin.create(graph, OptionalLong.empty(), "ann").graph().getVersion();
    h.activation.activate(GRAPH, "c1", version);
    StoredGraph target = h.store.get(GRAPH, version).orElseThrow();
    StoreHarness store = RecordingStaging.harness();
    List<String> docIds = new ArrayList<>();
    for (int i = 0; i < DOCUMENTS; i++) {
      String docId = "budget-" + i;
      docIds.add(docId);
      store.store.save(
          Saves.intake("acme", "ds-1", SampleDocs.document(docId, i, 64, "a")).build());
    }

    ReplayPages pages =
        new ReplayPages(
            new ReplayQuery(store.postgres.dataSource()),
            new ReplayAudit(store.postgres.dataSource()),
            h.store,
            slowStarts(new SfnStateMachines(h.sfn, EngineTestClients.ROLE)),
            new SourceRefetch(
                store.ledger,
                store.drives,
                new S3BlobStore(store.clients),
                new S3UploadObjects(store.clients),
                store.store),
            now::get,
            duration -> {},
            Duration.ofSeconds(30));
    ReplayInput input =
        new ReplayInput(
            "budget-run",
            "test",
            StreamDocumentsForReplayRequest.newBuilder()
                .setAccountId("acme")
                .setDatasourceId("ds-1")
                .addAllDocIds(docIds)
                .build(),
            GRAPH,
            OptionalLong.of(version),
            "",
            false,
            0,
            DOCUMENTS);
    ReplayPlan plan =
        new ReplayPlan(
            "budget-run",
            "test",
            "arn:aws:states:us-east-1:000000000000:execution:protomolt-c1-replay:budget-run",
            GRAPH,
            version,
            target.stateMachineVersionArn(),
            "",
            DOCUMENTS,
            null);
    new ReplayAudit(store.postgres.dataSource())
        .begin(
            new ReplayAudit.Run(
                plan.runArn(),
                plan.replayId(),
                plan.requestedBy(),
                "acme",
                GRAPH,
                version,
                "",
                false,
                "{}",
                DOCUMENTS,
                now.get()));

    ReplayProgress first =
        pages.next(input, plan, ReplayProgress.start(ReplayQuery.Cursor.START.text()), "exec-1");
    assertThat(first.candidates())
        .as("three 12 s starts reach the 30 s budget; the page of five stops there")
        .isEqualTo(3);
    assertThat(first.next()).as("the page was cut short, so another follows").isEqualTo("page");

    ReplayProgress second = pages.next(input, plan, first, "exec-1");
    assertThat(second.candidates()).isEqualTo(DOCUMENTS);
    assertThat(new ReplayAudit(store.postgres.dataSource()).pageRows(plan.runArn())).isEqualTo(2);
    assertThat(second.next()).isEqualTo("done");
    assertThat(second.count("started")).isEqualTo(DOCUMENTS);
    assertThat(started).as("every candidate started once, in order").hasSize(DOCUMENTS);
    assertThat(started).doesNotHaveDuplicates();
  }

  /** The real starts, each advancing the page's clock by {@link #START_LATENCY}. */
  private StateMachines slowStarts(StateMachines real) {
    return new StateMachines() {
      @Override
      public Optional<String> machineArn(String name) {
        return real.machineArn(name);
      }

      @Override
      public String create(String name, String definition) {
        return real.create(name, definition);
      }

      @Override
      public String updateAndPublish(String machineArn, String definition, String description) {
        return real.updateAndPublish(machineArn, definition, description);
      }

      @Override
      public void pointAlias(String machineArn, String aliasName, String versionArn) {
        real.pointAlias(machineArn, aliasName, versionArn);
      }

      @Override
      public Optional<String> aliasTarget(String machineArn, String aliasName) {
        return real.aliasTarget(machineArn, aliasName);
      }

      @Override
      public StartOutcome start(String arn, String executionName, String input) {
        StartOutcome outcome = real.start(arn, executionName, input);
        started.add(executionName);
        now.updateAndGet(t -> t.plus(START_LATENCY));
        return outcome;
      }
    };
  }
}
