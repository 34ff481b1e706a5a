package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.IntakeService.IntakeObject;
import dev.protomolt.engine.replay.ReplayRefused;
import dev.protomolt.engine.replay.ReplayReport;
import dev.protomolt.engine.replay.ReplayRequest;
import dev.protomolt.engine.replay.ReplayService;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.ledger.SourceSettlement;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Replay over the real store's query and the local Step Functions runtime: intake copies stored
 * before the graph existed are started on the version asked for and run to the sink (the test
 * plays the modules), a rerun converges, and ineligible candidates are skipped with their verdict.
 */
class ReplayServiceTest {

  private HopHarness h;
  private ReplayService replay;
  private final String prefix = UUID.randomUUID().toString();

  @BeforeEach
  void start() {
    h = new HopHarness();
    StoreHarness store = RecordingStaging.harness();
    replay =
        new ReplayService(
            new ReplayQuery(store.postgres.dataSource())::stream,
            h.store,
            new SfnStateMachines(h.sfn, EngineTestClients.ROLE),
            h.clock);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void storedDocumentsRunOnThePinnedVersionToTheSinkAndARerunStartsNothingNew() throws Exception {
    // Stored before any graph reads ds-1: admission recorded them UNBOUND, nothing ran.
    String a = upload("ds-1", "a.pdf");
    String b = upload("ds-1", "b.pdf");
    String settled = upload("ds-1", "settled.pdf");
    String elsewhere = upload("ds-2", "other.pdf");
    StoreHarness store = RecordingStaging.harness();
    Clock fixed = Clock.fixed(StoreHarness.NOW, ZoneOffset.UTC);
    List<ReplayCandidate> found = new ArrayList<>();
    new ReplayQuery(store.postgres.dataSource()).stream(selectors(settled), found::add);
    var row = found.getFirst().getDocumentRef();
    assertThat(
            new SourceSettlement(
                    store.postgres.dataSource(),
                    store.ledger,
                    new S3BlobStore(store.clients),
                    store.drives,
                    fixed)
                .settle(UUID.fromString(row.getNodeId()), "acme", settled)
                .settled())
        .isTrue();

    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 1);
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    h.activation.activate("g1", "c1", 2);

    ReplayRequest request =
        new ReplayRequest("r-1", selectors(a, b, settled, elsewhere), "g1", OptionalLong.of(1));
    List<ReplayReport> progress = new ArrayList<>();
    ReplayReport report = replay.replay(request, progress::add);

    assertThat(report.graphVersion()).isEqualTo(1);
    assertThat(report.versionArn())
        .isEqualTo(h.store.get("g1", 1).orElseThrow().stateMachineVersionArn());
    assertThat(report.candidates()).isEqualTo(4);
    assertThat(report.started()).isEqualTo(2);
    assertThat(report.alreadyStarted()).isZero();
    assertThat(report.skipped()).isEqualTo(Map.of("SOURCE_RECEIPT", 1L, ReplayReport.NOT_READ, 1L));
    assertThat(progress).hasSize(4).last().isEqualTo(report);
    assertThat(progress).extracting(ReplayReport::candidates).containsExactly(1L, 2L, 3L, 4L);

    // Play the modules of both documents through parse, chunk and index.
    List<String> parsedDocs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      WorkDispatch work = h.nextDispatch();
      assertThat(work.getGraphVersion()).as("the pinned version, not the active one").isEqualTo(1);
      if (work.getNodeId().equals("parse")) {
        String docId = work.getStream().getDocumentRef().getDocId();
        parsedDocs.add(docId);
        h.succeed(
            work,
            work.getStream().toBuilder()
                .setDocument(
                    PipeDoc.newBuilder()
                        .setDocId(docId)
                        .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en")))
                .build());
      } else {
        h.succeed(work, work.getStream());
      }
    }
    assertThat(parsedDocs).containsExactlyInAnyOrder(a, b);
    List<ExecutionListItem> executions = executionsOn(report.versionArn());
    assertThat(executions).hasSize(2);
    for (ExecutionListItem e : executions) {
      var done = h.awaitClosed(e.executionArn());
      assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(HopHarness.parse(done.output()).get("disposition").asText())
          .isEqualTo("SINK_REACHED");
      assertThat(HopHarness.parse(done.input()).at("/stream/metadata/graphVersion").asText())
          .isEqualTo("1");
    }

    ReplayReport rerun = replay.replay(request);
    assertThat(rerun.started()).isZero();
    assertThat(rerun.alreadyStarted()).isEqualTo(2);
    assertThat(rerun.skipped()).isEqualTo(report.skipped());
    assertThat(executionsOn(report.versionArn())).hasSize(2);
    assertThat(h.events.dispatches).as("nothing new was dispatched").isEmpty();

    // Without a version, the version the active alias names when the replay starts.
    ReplayReport latest =
        replay.replay(new ReplayRequest("", selectors(a), "g1", OptionalLong.empty()));
    assertThat(latest.graphVersion()).isEqualTo(2);
    assertThat(latest.started()).isEqualTo(1);
    assertThat(latest.replayId()).as("derived from the request").hasSize(64);
    assertThat(h.nextDispatch().getGraphVersion()).isEqualTo(2);
    // Later, while that execution still runs: Step Functions answers a same-name start with other
    // input (a later created_at) as ExecutionAlreadyExists, so the rerun converges.
    h.clock.advance(Duration.ofMinutes(1));
    assertThat(
            replay
                .replay(new ReplayRequest("", selectors(a), "g1", OptionalLong.empty()))
                .alreadyStarted())
        .as("the same request derives the same id and converges")
        .isEqualTo(1);
  }

  @Test
  void badRequestsAreRefusedNamingTheFieldBeforeAnythingStarts() {
    String a = upload("ds-1", "a.pdf");
    h.admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    assertRefused(
        new ReplayRequest("r", selectors(a), "g1", OptionalLong.empty()),
        "graph_id",
        "no deployed version");
    assertRefused(
        new ReplayRequest("r", selectors(a), "g1", OptionalLong.of(1)),
        "version",
        "never activated");
    h.activation.activate("g1", "c1", 1);
    assertRefused(
        new ReplayRequest("r", selectors(a), " ", OptionalLong.empty()), "graph_id", "required");
    assertRefused(
        new ReplayRequest("r", selectors(a), "g1", OptionalLong.of(0)), "version", "positive");
    assertRefused(
        new ReplayRequest("r", selectors(a), "g1", OptionalLong.of(9)), "version", "no version 9");
    assertRefused(
        new ReplayRequest(
            "r",
            StreamDocumentsForReplayRequest.newBuilder().setAccountId("acme").build(),
            "g1",
            OptionalLong.empty()),
        "selectors.account_id",
        "bare account_id");
    assertRefused(
        new ReplayRequest(
            "r",
            selectors(a).toBuilder().setGraphId("g1").setGraphAddressId("parse").build(),
            "g1",
            OptionalLong.empty()),
        "selectors.graph_id",
        "intake copies");
    assertThat(executionsOn(h.store.get("g1", 1).orElseThrow().stateMachineVersionArn())).isEmpty();
  }

  private void assertRefused(ReplayRequest request, String field, String rule) {
    assertThatThrownBy(() -> replay.replay(request))
        .isInstanceOfSatisfying(
            ReplayRefused.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(rule);
            });
  }

  private String upload(String datasource, String file) {
    List<AdmissionRecord> admitted =
        h.intake.admit(
            new IntakeObject(
                "protomolt-intake",
                "acme/" + datasource + "/" + prefix + "/" + file,
                10,
                "etag-" + file,
                ""));
    assertThat(admitted)
        .singleElement()
        .extracting(AdmissionRecord::outcome)
        .isEqualTo(Outcome.UNBOUND);
    return admitted.getFirst().docId();
  }

  private static StreamDocumentsForReplayRequest selectors(String... docIds) {
    return StreamDocumentsForReplayRequest.newBuilder()
        .setAccountId("acme")
        .addAllDocIds(List.of(docIds))
        .build();
  }

  private List<ExecutionListItem> executionsOn(String versionArn) {
    return h.sfn.listExecutions(r -> r.stateMachineArn(versionArn)).executions();
  }
}
