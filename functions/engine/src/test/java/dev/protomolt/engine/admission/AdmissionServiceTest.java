package dev.protomolt.engine.admission;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;

/**
 * Admission against the local Step Functions runtime and embedded PostgreSQL: the alias is
 * resolved to a version, the version stamped, the execution named deterministically.
 */
class AdmissionServiceTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The intake node's Complete ends routing, so admitted executions finish on their own. */
  private static final String NO_DESTINATIONS =
      "{\"node\":\"\",\"workUnitId\":\"wu\",\"destinationCount\":0,\"stream\":null,"
          + "\"destinations\":[],\"memoized\":[],\"skipped\":false}";

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  private LocalStepFunctions runtime;
  private SfnClient sfn;
  private GraphStore store;
  private GraphAdminService admin;
  private GraphActivationService activation;
  private PostgresAdmissionLog log;
  private AdmissionService admission;

  @BeforeEach
  void start() {
    DataSource ds = EngineDatabase.fresh();
    runtime =
        LocalStepFunctions.start(
            0,
            ds,
            (fn, payload) -> {
              // Intake's Complete waits on a task token it answers itself when it hands nothing
              // on (decision 1843).
              String token = readTree(payload).at("/dispatchNext/taskToken").asText("");
              if (!token.isEmpty()) {
                sfn.sendTaskSuccess(b -> b.taskToken(token).output(NO_DESTINATIONS));
              }
              return NO_DESTINATIONS;
            },
            new dev.protomolt.localstack.sfn.FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
    sfn = EngineTestClients.sfn(runtime.endpoint());
    store = new PostgresGraphStore(ds);
    admin =
        new GraphAdminService(
            store,
            new StepFunctionsVersionPins(sfn, store),
            event -> {},
            GraphValidator.standard(EngineDatabase.CEL, EngineDatabase.TENANCY),
            clock);
    SfnStateMachines machines = new SfnStateMachines(sfn, EngineTestClients.ROLE);
    activation = new GraphActivationService(admin, machines, EngineTestClients.FUNCTIONS);
    log = new PostgresAdmissionLog(ds);
    admission =
        new AdmissionService(
            new SubscriptionLookup(store::subscriptions, clock, Duration.ZERO),
            store,
            machines,
            log,
            clock);
  }

  @AfterEach
  void stop() {
    sfn.close();
    runtime.close();
  }

  @Test
  void anIntakeStartsAnExecutionOnTheActiveVersionWithTheStreamStamped() throws Exception {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v1 = activation.activate("g1", "c1", 1).versionArn();

    List<AdmissionRecord> recorded = admission.admit(byReference("doc-1"));

    assertThat(recorded)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(Outcome.STARTED);
              assertThat(r.graphVersion()).isEqualTo(1);
              assertThat(r.executionName())
                  .isEqualTo(
                      StateMachineNames.admissionExecutionName("acme", "ds-1", "doc-1", "g1", 1))
                  .hasSize(64);
            });
    DescribeExecutionResponse execution =
        sfn.describeExecution(b -> b.executionArn(recorded.getFirst().executionArn()));
    assertThat(execution.stateMachineVersionArn()).isEqualTo(v1);
    JsonNode input = JSON.readTree(execution.input());
    assertThat(input.get("node").asText()).isEqualTo("in");
    assertThat(input.at("/stream/metadata/graphId").asText()).isEqualTo("g1");
    assertThat(input.at("/stream/metadata/graphVersion").asText()).isEqualTo("1");
    assertThat(input.at("/stream/metadata/datasourceId").asText()).isEqualTo("ds-1");
    assertThat(input.at("/stream/currentNodeId").asText()).isEqualTo("in");
    assertThat(input.at("/stream/clusterId").asText()).isEqualTo("c1");
    assertThat(input.at("/stream/documentRef/docId").asText()).isEqualTo("doc-1");
    assertThat(log.forDocument("acme", "ds-1", "doc-1")).containsExactlyElementsOf(recorded);
  }

  @Test
  void aRepeatedNotificationConvergesOnTheSameExecution() throws Exception {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String machine = activation.activate("g1", "c1", 1).machineArn();
    AdmissionRecord first = admission.admit(byReference("doc-1")).getFirst();
    awaitClosed(first.executionArn());

    AdmissionRecord again = admission.admit(byReference("doc-1")).getFirst();

    assertThat(again.outcome()).isEqualTo(Outcome.CONVERGED);
    assertThat(again.executionName()).isEqualTo(first.executionName());
    assertThat(sfn.listExecutions(b -> b.stateMachineArn(machine)).executions()).hasSize(1);
    assertThat(log.forDocument("acme", "ds-1", "doc-1"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
              assertThat(r.executionArn())
                  .as("the started execution stays on record")
                  .isEqualTo(first.executionArn());
            });
  }

  @Test
  void aDocumentAdmittedAfterANewActivationRunsTheNewVersionWhileTheEarlierOneStaysPinned() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v1 = activation.activate("g1", "c1", 1).versionArn();
    AdmissionRecord early = admission.admit(inline("doc-early")).getFirst();
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    String v2 = activation.activate("g1", "c1", 2).versionArn();

    AdmissionRecord late = admission.admit(inline("doc-late")).getFirst();

    assertThat(late.graphVersion()).isEqualTo(2);
    assertThat(
            sfn.describeExecution(b -> b.executionArn(late.executionArn()))
                .stateMachineVersionArn())
        .isEqualTo(v2);
    assertThat(
            sfn.describeExecution(b -> b.executionArn(early.executionArn()))
                .stateMachineVersionArn())
        .isEqualTo(v1);
  }

  @Test
  void anUnboundDatasourceIsRecordedNotSilentlyAcknowledged() {
    List<AdmissionRecord> recorded =
        admission.admit(new Intake("acme", "ds-2", "doc-9", inline("doc-9").stream()));

    assertThat(recorded)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(Outcome.UNBOUND);
              assertThat(r.graphId()).isEmpty();
              assertThat(r.detail()).contains("datasource 'ds-2' feeds no active graph");
            });
    assertThat(log.forDocument("acme", "ds-2", "doc-9")).containsExactlyElementsOf(recorded);
  }

  @Test
  void aGraphActiveInTheStoreButNotDeployedIsRecordedAndRaisedForRedelivery() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    // Only the store flips (as when an activation failed before publishing): nothing is deployed.
    store.activate("g1", "c1", 1, store.deactivationEpoch("g1"));

    assertThatThrownBy(() -> admission.admit(inline("doc-1")))
        .isInstanceOf(AdmissionService.NotYetDeployedException.class)
        .hasMessageContaining("graph(s) [g1]");
    assertThat(log.forDocument("acme", "ds-1", "doc-1"))
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.UNDEPLOYED));
  }

  @Test
  void aDeactivatedGraphAdmitsNothingAndTheIntakeIsRecordedUnbound() {
    admin.create(linear("g1", 0), OptionalLong.empty(), "ann");
    activation.activate("g1", "c1", 1);
    admin.deactivate("g1", "c1");

    assertThat(admission.admit(inline("doc-late")))
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.UNBOUND));
  }

  @Test
  void badIntakesAreRefusedNamingTheField() {
    PipeStream body = inline("d").stream();
    assertThatThrownBy(() -> new Intake(" ", "ds-1", "d", body))
        .hasMessage("accountId must not be blank");
    assertThatThrownBy(() -> new Intake("acme", "", "d", body))
        .hasMessage("datasourceId must not be blank");
    assertThatThrownBy(() -> new Intake("acme", "ds-1", null, body))
        .hasMessage("docId must not be blank");
    assertThatThrownBy(() -> new Intake("acme", "ds-1", "d", PipeStream.getDefaultInstance()))
        .hasMessageContaining("stream must carry the body inline (document) or by reference");
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("a task payload is JSON", e);
    }
  }

  /** Bounds the wait for the intake hop to finish; never asserted on. */
  private void awaitClosed(String executionArn) {
    StepFunctionsExecutions.awaitClosed(sfn, executionArn);
  }

  private static Intake byReference(String docId) {
    return new Intake(
        "acme",
        "ds-1",
        docId,
        PipeStream.newBuilder()
            .setStreamId("s-" + docId)
            .setDocumentRef(DocumentReference.newBuilder().setDocId(docId).setAccountId("acme"))
            .build());
  }

  private static Intake inline(String docId) {
    return new Intake(
        "acme",
        "ds-1",
        docId,
        PipeStream.newBuilder()
            .setStreamId("s-" + docId)
            .setDocument(PipeDoc.newBuilder().setDocId(docId))
            .build());
  }
}
