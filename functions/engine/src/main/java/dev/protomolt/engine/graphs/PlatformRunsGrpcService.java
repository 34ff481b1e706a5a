package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.proto.engine.v1.Admission;
import dev.protomolt.proto.engine.v1.DatasourceOwner;
import dev.protomolt.proto.engine.v1.GetDatasourceOwnerRequest;
import dev.protomolt.proto.engine.v1.GetNodeTalliesRequest;
import dev.protomolt.proto.engine.v1.GetNodeTalliesResponse;
import dev.protomolt.proto.engine.v1.GetReplayRunRequest;
import dev.protomolt.proto.engine.v1.ListAdmissionsRequest;
import dev.protomolt.proto.engine.v1.ListAdmissionsResponse;
import dev.protomolt.proto.engine.v1.NodeTally;
import dev.protomolt.proto.engine.v1.PlatformRunsServiceGrpc;
import dev.protomolt.proto.engine.v1.ReplayRun;
import dev.protomolt.repository.postgres.PostgresNodeTallies;
import dev.protomolt.repository.replay.ReplayAudit;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.Objects;

/**
 * The operator door of what the platform recorded about document runs (decision 1523): datasource
 * owners, intake admissions, node tallies and replay runs, read from the ledger's adapters so that
 * operators' tools (the CLI) never open the database. The gateway's door keeper has already checked
 * the caller against the request's {@code account_id} (or required a platform operator when it names
 * none) before a call reaches this service.
 */
public final class PlatformRunsGrpcService
    extends PlatformRunsServiceGrpc.PlatformRunsServiceImplBase {

  /** Documents one admissions or tallies call may name: one upload batch, not the ledger. */
  static final int MAX_DOC_IDS = 10_000;

  private final TenancyDirectory datasources;
  private final PostgresAdmissionLog admissions;
  private final PostgresNodeTallies tallies;
  private final ReplayAudit replays;
  private final GraphStore graphs;

  public PlatformRunsGrpcService(
      TenancyDirectory datasources,
      PostgresAdmissionLog admissions,
      PostgresNodeTallies tallies,
      ReplayAudit replays,
      GraphStore graphs) {
    this.datasources = Objects.requireNonNull(datasources, "datasources");
    this.admissions = Objects.requireNonNull(admissions, "admissions");
    this.tallies = Objects.requireNonNull(tallies, "tallies");
    this.replays = Objects.requireNonNull(replays, "replays");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
  }

  @Override
  public void getDatasourceOwner(
      GetDatasourceOwnerRequest request, StreamObserver<DatasourceOwner> out) {
    DoorCalls.unary(
        out,
        () -> {
          String id = required("datasource_id", request.getDatasourceId());
          return datasources
              .datasourceAccount(id)
              .map(owner -> DatasourceOwner.newBuilder().setProvisioned(true).setOwner(owner))
              .orElseGet(DatasourceOwner::newBuilder)
              .build();
        });
  }

  @Override
  public void listAdmissions(
      ListAdmissionsRequest request, StreamObserver<ListAdmissionsResponse> out) {
    DoorCalls.unary(
        out,
        () -> {
          String account = required("account_id", request.getAccountId());
          docIds(request.getDocIdsCount());
          Instant since =
              request.hasSince()
                  ? Instant.ofEpochSecond(
                      request.getSince().getSeconds(), request.getSince().getNanos())
                  : Instant.EPOCH;
          ListAdmissionsResponse.Builder reply = ListAdmissionsResponse.newBuilder();
          for (AdmissionRecord r :
              admissions.forDocuments(account, request.getDocIdsList(), since)) {
            reply.addAdmissions(
                Admission.newBuilder()
                    .setDocId(r.docId())
                    .setGraphId(r.graphId())
                    .setGraphVersion(r.graphVersion())
                    .setOutcome(r.outcome().name())
                    .setExecutionArn(r.executionArn()));
          }
          return reply.build();
        });
  }

  @Override
  public void getNodeTallies(
      GetNodeTalliesRequest request, StreamObserver<GetNodeTalliesResponse> out) {
    DoorCalls.unary(
        out,
        () -> {
          String account = required("account_id", request.getAccountId());
          String graph = required("graph_id", request.getGraphId());
          docIds(request.getDocIdsCount());
          GetNodeTalliesResponse.Builder reply = GetNodeTalliesResponse.newBuilder();
          for (PostgresNodeTallies.NodeCount n :
              tallies.of(account, graph, request.getDocIdsList())) {
            reply.addTallies(
                NodeTally.newBuilder()
                    .setNode(n.node())
                    .setDocuments(n.documents())
                    .setParts(n.parts()));
          }
          return reply.build();
        });
  }

  @Override
  public void getReplayRun(GetReplayRunRequest request, StreamObserver<ReplayRun> out) {
    String arn = request.getRunArn();
    if (arn.isBlank()) {
      out.onError(
          Status.INVALID_ARGUMENT
              .withDescription("run_arn: required, the replay execution's ARN")
              .asRuntimeException());
      return;
    }
    var found = replays.run(arn);
    if (found.isEmpty()) {
      // A run is recorded by its validate step: until then, and for an ARN that is no run, the
      // answer is the same.
      out.onError(
          Status.NOT_FOUND
              .withDescription("run_arn: no replay run is recorded under " + arn)
              .asRuntimeException());
      return;
    }
    DoorCalls.unary(
        out,
        () -> {
          ReplayAudit.RunState state = found.get();
          ReplayAudit.Run run = state.run();
          return ReplayRun.newBuilder()
              .setRunArn(arn)
              .setReplayId(run.replayId())
              .setGraphId(run.graphId())
              .setGraphVersion(run.graphVersion())
              .setDryRun(run.dryRun())
              .setCandidatesTotal(run.candidatesTotal())
              .setStatus(state.status())
              .setCandidates(state.candidates())
              .putAllCounts(state.counts())
              .setStateMachineVersionArn(
                  graphs
                      .get(run.graphId(), run.graphVersion())
                      .map(GraphStore.StoredGraph::stateMachineVersionArn)
                      .orElse(""))
              .build();
        });
  }

  private static String required(String field, String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + ": required, was blank");
    }
    return value;
  }

  private static void docIds(int count) {
    if (count == 0) {
      throw new IllegalArgumentException("doc_ids: must name at least one document");
    }
    if (count > MAX_DOC_IDS) {
      throw new IllegalArgumentException(
          "doc_ids: at most " + MAX_DOC_IDS + " per call, got " + count);
    }
  }
}
