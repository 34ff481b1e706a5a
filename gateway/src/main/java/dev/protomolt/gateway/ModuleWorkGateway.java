package dev.protomolt.gateway;

import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.tracing.Tracing;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.trace.Tracer;
import java.util.Objects;

/** {@code ModuleWorkService.Work}: one {@link WorkSession} per stream, one work unit per session. */
public final class ModuleWorkGateway extends ModuleWorkServiceGrpc.ModuleWorkServiceImplBase {

  private final WorkSession.Context context;

  public ModuleWorkGateway(
      WorkSource source,
      TaskCompletion completion,
      WorkScreen screen,
      WorkDocuments documents,
      GatewayClock clock,
      GatewaySettings settings) {
    this(source, completion, screen, documents, clock, settings, WorkUnitLogs.NONE);
  }

  /** As above, keeping every settled ack's log lines in {@code logs}. */
  public ModuleWorkGateway(
      WorkSource source,
      TaskCompletion completion,
      WorkScreen screen,
      WorkDocuments documents,
      GatewayClock clock,
      GatewaySettings settings,
      WorkUnitLogs logs) {
    this(source, completion, screen, documents, clock, settings, logs, ReceiptProducer.NONE);
  }

  /** As above, producing the indexing receipts sink modules send with their acks. */
  public ModuleWorkGateway(
      WorkSource source,
      TaskCompletion completion,
      WorkScreen screen,
      WorkDocuments documents,
      GatewayClock clock,
      GatewaySettings settings,
      WorkUnitLogs logs,
      ReceiptProducer receipts) {
    this(
        source,
        completion,
        screen,
        documents,
        clock,
        settings,
        logs,
        receipts,
        Tracing.off().tracer());
  }

  /** As above, recording a serve and an ack span per work unit in the document's trace. */
  public ModuleWorkGateway(
      WorkSource source,
      TaskCompletion completion,
      WorkScreen screen,
      WorkDocuments documents,
      GatewayClock clock,
      GatewaySettings settings,
      WorkUnitLogs logs,
      ReceiptProducer receipts,
      Tracer tracer) {
    this.context =
        new WorkSession.Context(
            Objects.requireNonNull(source, "source"),
            Objects.requireNonNull(completion, "completion"),
            Objects.requireNonNull(screen, "screen"),
            Objects.requireNonNull(documents, "documents"),
            Objects.requireNonNull(clock, "clock"),
            Objects.requireNonNull(settings, "settings"),
            new SettledTokens(100_000),
            new GatewayCounters(),
            Objects.requireNonNull(logs, "logs"),
            Objects.requireNonNull(receipts, "receipts"),
            Objects.requireNonNull(tracer, "tracer"),
            new ModuleActivity(clock.now()));
  }

  public GatewayCounters counters() {
    return context.counters();
  }

  /** What this task's Work streams are doing per module service, for the backlog signals. */
  public ModuleActivity activity() {
    return context.activity();
  }

  @Override
  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> responses) {
    return new WorkSession(context, responses);
  }
}
