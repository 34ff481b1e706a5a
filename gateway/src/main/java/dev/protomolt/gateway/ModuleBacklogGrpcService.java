package dev.protomolt.gateway;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.module.v1.GetModuleBacklogRequest;
import dev.protomolt.proto.module.v1.GetModuleBacklogResponse;
import dev.protomolt.proto.module.v1.GraphNodeBacklog;
import dev.protomolt.proto.module.v1.ModuleBacklogServiceGrpc;
import dev.protomolt.proto.module.v1.ModuleServiceBacklog;
import dev.protomolt.repository.postgres.LedgerException;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code ModuleBacklogService}: the backlog signals of this task, measured on request, beside the
 * consumer group's lag (decision 1655), and per graph node what it holds and how it settled the
 * node's hops since it started (decision 1659). The gateway's access interceptor admits only a
 * platform operator: the request names no account.
 */
public final class ModuleBacklogGrpcService
    extends ModuleBacklogServiceGrpc.ModuleBacklogServiceImplBase {

  private final BacklogSignals signals;
  private final ModuleBacklog groupBacklog;
  private final Supplier<Map<String, Long>> memoized;
  private final NodeDeadLetters deadLetters;

  /**
   * @param memoized hops answered from a memo so far, by module id (decision 1816)
   * @param deadLetters each graph node's letters on its dead-letter topics
   */
  public ModuleBacklogGrpcService(
      BacklogSignals signals,
      ModuleBacklog groupBacklog,
      Supplier<Map<String, Long>> memoized,
      NodeDeadLetters deadLetters) {
    this.signals = Objects.requireNonNull(signals, "signals");
    this.groupBacklog = Objects.requireNonNull(groupBacklog, "groupBacklog");
    this.memoized = Objects.requireNonNull(memoized, "memoized");
    this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
  }

  @Override
  public void getModuleBacklog(
      GetModuleBacklogRequest request, StreamObserver<GetModuleBacklogResponse> responses) {
    GetModuleBacklogResponse.Builder out = GetModuleBacklogResponse.newBuilder();
    try {
      Map<String, Long> lag = groupBacklog.measure();
      Map<String, Long> reused = memoized.get();
      for (BacklogSignals.ModuleServiceBacklog b : signals.measure()) {
        out.addModuleServices(
            ModuleServiceBacklog.newBuilder()
                .setModuleId(b.moduleId())
                .setQueued(b.queued())
                .setOldestQueuedAgeSeconds(b.oldestQueuedAge().toSeconds())
                .setStreamsOpen(b.streamsOpen())
                .setUnitsInFlight(b.unitsInFlight())
                .setGroupLag(lag.getOrDefault(b.moduleId(), 0L))
                .setMemoized(reused.getOrDefault(b.moduleId(), 0L)));
      }
      for (BacklogSignals.GraphNodeBacklog n : signals.measureNodes()) {
        out.addGraphNodes(
            GraphNodeBacklog.newBuilder()
                .setGraphId(n.graphId())
                .setNodeId(n.nodeId())
                .setModuleId(n.moduleId())
                .setQueued(n.queued())
                .setOldestQueuedAgeSeconds(n.oldestQueuedAge().toSeconds())
                .setUnitsInFlight(n.unitsInFlight())
                .setDone(n.done())
                .setRejected(n.rejected())
                .setRetried(n.retried())
                .setDeadLettered(deadLetters.count(n.graphId(), n.nodeId())));
      }
      var since = signals.countingSince();
      out.setCountedSince(
          Timestamp.newBuilder().setSeconds(since.getEpochSecond()).setNanos(since.getNano()));
    } catch (LedgerException e) {
      responses.onError(
          Status.UNAVAILABLE
              .withDescription("the memoized hops could not be read: " + e.getMessage())
              .asRuntimeException());
      return;
    } catch (IllegalStateException e) {
      // Kafka did not answer: say so rather than report an empty backlog.
      responses.onError(
          Status.UNAVAILABLE
              .withDescription("the module backlog could not be measured: " + e.getMessage())
              .asRuntimeException());
      return;
    }
    responses.onNext(out.build());
    responses.onCompleted();
  }
}
