package dev.protomolt.engine.graphs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.proto.engine.v1.GetDatasourceOwnerRequest;
import dev.protomolt.proto.engine.v1.GetNodeTalliesRequest;
import dev.protomolt.proto.engine.v1.GetReplayRunRequest;
import dev.protomolt.proto.engine.v1.ListAdmissionsRequest;
import dev.protomolt.proto.engine.v1.PlatformRunsServiceGrpc;
import dev.protomolt.proto.engine.v1.PlatformRunsServiceGrpc.PlatformRunsServiceBlockingStub;
import dev.protomolt.repository.postgres.PostgresNodeTallies;
import dev.protomolt.repository.replay.ReplayAudit;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The runs door over real PostgreSQL: what it reads, and every refusal naming its field. */
class PlatformRunsDoorTest {

  private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

  private PostgresAdmissionLog admissions;
  private Server server;
  private ManagedChannel channel;
  private PlatformRunsServiceBlockingStub stub;

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EngineDatabase.fresh();
    new PostgresDatasourceBindings(ds).bind("docs", "acme");
    admissions = new PostgresAdmissionLog(ds);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new PlatformRunsGrpcService(
                    new PostgresDatasourceBindings(ds),
                    admissions,
                    new PostgresNodeTallies(ds),
                    new ReplayAudit(ds),
                    new PostgresGraphStore(ds)))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = PlatformRunsServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  @Test
  void aDatasourceOwnerIsAnsweredAndAnUnprovisionedOneSaysSo() {
    var owned = stub.getDatasourceOwner(owner("docs"));
    assertThat(owned.getProvisioned()).isTrue();
    assertThat(owned.getOwner()).isEqualTo("acme");
    var none = stub.getDatasourceOwner(owner("nobody"));
    assertThat(none.getProvisioned()).isFalse();
    assertThat(none.getOwner()).isEmpty();
  }

  @Test
  void admissionsAreListedForTheNamedDocumentsSinceTheInstant() {
    admissions.record(admission("doc-1", "g", Outcome.STARTED, "arn:exec:1", AT));
    admissions.record(admission("doc-2", "", Outcome.UNBOUND, "", AT));
    admissions.record(admission("doc-3", "g", Outcome.STARTED, "arn:exec:3", AT));

    var listed =
        stub.listAdmissions(
            ListAdmissionsRequest.newBuilder()
                .setAccountId("acme")
                .addDocIds("doc-1")
                .addDocIds("doc-2")
                .setSince(Timestamp.newBuilder().setSeconds(AT.getEpochSecond()))
                .build());
    assertThat(listed.getAdmissionsList())
        .extracting(a -> a.getDocId() + " " + a.getOutcome() + " " + a.getExecutionArn())
        .containsExactly("doc-1 STARTED arn:exec:1", "doc-2 UNBOUND ");

    var later =
        stub.listAdmissions(
            ListAdmissionsRequest.newBuilder()
                .setAccountId("acme")
                .addDocIds("doc-1")
                .setSince(Timestamp.newBuilder().setSeconds(AT.getEpochSecond() + 1))
                .build());
    assertThat(later.getAdmissionsList()).isEmpty();
  }

  @Test
  void everyRefusalNamesItsFieldAndAnUnknownRunIsNotFound() {
    assertRefused(() -> stub.getDatasourceOwner(owner(" ")), "datasource_id: required");
    assertRefused(
        () -> stub.listAdmissions(ListAdmissionsRequest.newBuilder().addDocIds("d").build()),
        "account_id: required");
    assertRefused(
        () -> stub.listAdmissions(ListAdmissionsRequest.newBuilder().setAccountId("acme").build()),
        "doc_ids: must name at least one document");
    assertRefused(
        () ->
            stub.getNodeTallies(
                GetNodeTalliesRequest.newBuilder().setAccountId("acme").addDocIds("d").build()),
        "graph_id: required");
    assertRefused(
        () -> stub.getReplayRun(GetReplayRunRequest.getDefaultInstance()), "run_arn: required");
    assertThatThrownBy(
            () -> stub.getReplayRun(GetReplayRunRequest.newBuilder().setRunArn("arn:x").build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  private static void assertRefused(Runnable call, String message) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).startsWith(message);
            });
  }

  private static GetDatasourceOwnerRequest owner(String id) {
    return GetDatasourceOwnerRequest.newBuilder().setDatasourceId(id).build();
  }

  private static AdmissionRecord admission(
      String docId, String graphId, Outcome outcome, String arn, Instant at) {
    return new AdmissionRecord(
        "acme", "docs", docId, graphId, 1, outcome, arn.isEmpty() ? "" : "n-" + docId, arn, "", at);
  }
}
