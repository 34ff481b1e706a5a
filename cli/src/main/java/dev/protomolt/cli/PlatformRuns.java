package dev.protomolt.cli;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.engine.v1.Admission;
import dev.protomolt.proto.engine.v1.GetDatasourceOwnerRequest;
import dev.protomolt.proto.engine.v1.GetGraphRequest;
import dev.protomolt.proto.engine.v1.GetNodeTalliesRequest;
import dev.protomolt.proto.engine.v1.GetReplayRunRequest;
import dev.protomolt.proto.engine.v1.ListAdmissionsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.engine.v1.PlatformRunsServiceGrpc;
import dev.protomolt.proto.engine.v1.ReplayRun;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the CLI reads about document runs, through the gateway's operator doors (decision 1523):
 * the {@code PlatformRunsService} and the graph door, signed as the channel's caller. It never
 * opens the platform's database, so the commands work the same against a deployed stack.
 */
final class PlatformRuns {

  private final PlatformRunsServiceGrpc.PlatformRunsServiceBlockingStub runs;
  private final PipelineGraphServiceGrpc.PipelineGraphServiceBlockingStub graphs;

  PlatformRuns(Channel channel) {
    this.runs = PlatformRunsServiceGrpc.newBlockingStub(channel);
    this.graphs = PipelineGraphServiceGrpc.newBlockingStub(channel);
  }

  /** The account owning {@code datasourceId}, if it is provisioned. */
  Optional<String> datasourceOwner(String datasourceId) {
    var owner =
        timed(runs)
            .getDatasourceOwner(
                GetDatasourceOwnerRequest.newBuilder().setDatasourceId(datasourceId).build());
    return owner.getProvisioned() ? Optional.of(owner.getOwner()) : Optional.empty();
  }

  /** Every admission of the documents since {@code since}, by document then graph. */
  List<Admission> admissions(String accountId, Collection<String> docIds, Instant since) {
    return timed(runs)
        .listAdmissions(
            ListAdmissionsRequest.newBuilder()
                .setAccountId(accountId)
                .addAllDocIds(docIds)
                .setSince(
                    Timestamp.newBuilder()
                        .setSeconds(since.getEpochSecond())
                        .setNanos(since.getNano()))
                .build())
        .getAdmissionsList();
  }

  /** Node by node, how far the documents got in the ledger. */
  List<NodeTally> tallies(String accountId, String graphId, Collection<String> docIds) {
    return timed(runs)
        .getNodeTallies(
            GetNodeTalliesRequest.newBuilder()
                .setAccountId(accountId)
                .setGraphId(graphId)
                .addAllDocIds(docIds)
                .build())
        .getTalliesList()
        .stream()
        .map(t -> new NodeTally(t.getNode(), t.getDocuments(), t.getParts()))
        .toList();
  }

  /** The replay run recorded under {@code runArn}, empty until its validate step recorded it. */
  Optional<ReplayRun> replayRun(String runArn) {
    try {
      return Optional.of(
          timed(runs).getReplayRun(GetReplayRunRequest.newBuilder().setRunArn(runArn).build()));
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * The published state machine version of a stored graph version: empty when the version was
   * never published; a graph or version that does not exist fails NOT_FOUND.
   */
  String stateMachineVersionArn(String graphId, long version) {
    return timed(graphs)
        .getGraph(GetGraphRequest.newBuilder().setGraphId(graphId).setVersion(version).build())
        .getStateMachineVersionArn();
  }

  /** Every read answers within 30 s or fails DEADLINE_EXCEEDED: one indexed query each. */
  private static <S extends io.grpc.stub.AbstractStub<S>> S timed(S stub) {
    return stub.withDeadlineAfter(30, TimeUnit.SECONDS);
  }
}
