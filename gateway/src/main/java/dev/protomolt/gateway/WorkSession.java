package dev.protomolt.gateway;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.AckConfirmed;
import dev.protomolt.proto.module.v1.Heartbeat;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.NoWorkAvailable;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.module.v1.WorkUnit;
import dev.protomolt.statemachines.ErrorNames;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * One module stream, one work unit: Hello, then a WorkUnit or NoWorkAvailable, heartbeats, one
 * WorkAck, AckConfirmed, close. Every callback (gRPC, timers, arrivals) takes this session's lock,
 * so the response observer is only ever called by one thread at a time.
 *
 * <p>The record a session pops is its responsibility until it is settled or re-buffered: every way
 * out of the SERVING phase does exactly one of the two.
 */
final class WorkSession implements StreamObserver<WorkRequest> {

  private static final System.Logger LOG = System.getLogger(WorkSession.class.getName());
  private static final Pattern MODULE_ID = Pattern.compile("[A-Za-z0-9._-]+");

  record Context(
      WorkSource source,
      TaskCompletion completion,
      WorkScreen screen,
      WorkDocuments documents,
      GatewayClock clock,
      GatewaySettings settings,
      SettledTokens settled,
      GatewayCounters counters,
      WorkUnitLogs logs,
      ReceiptProducer receipts,
      Tracer tracer,
      ModuleActivity activity) {}

  private enum Phase {
    AWAITING_HELLO,
    WAITING,
    SERVING,
    DONE
  }

  private final Context ctx;
  private final StreamObserver<WorkResponse> out;
  private Phase phase = Phase.AWAITING_HELLO;
  private String moduleId = "";
  private String instanceId = "";
  private CompletableFuture<Void> noWorkTimer;
  private CompletableFuture<Void> arrivalWait;
  private CompletableFuture<Void> watchdog;
  private PendingWork pending;
  private WorkDispatch dispatch;
  private HydratedUnit hydrated;
  private Duration moduleHeartbeat;
  private Instant lastRelay;
  private Instant servedAt;
  private boolean tokenGone;
  // The serve span's context: the unit's traceparent, and the parent of its ack span.
  private String serveTraceparent = "";

  WorkSession(Context ctx, StreamObserver<WorkResponse> out) {
    this.ctx = ctx;
    this.out = out;
  }

  // ------------------------------------------------------------------------------- from the module

  @Override
  public synchronized void onNext(WorkRequest request) {
    if (phase == Phase.DONE) {
      return;
    }
    switch (request.getMessageCase()) {
      case HELLO -> onHello(request.getHello());
      case HEARTBEAT -> onHeartbeat(request.getHeartbeat());
      case ACK -> onAck(request.getAck());
      case MESSAGE_NOT_SET -> protocolError("message: one of hello, heartbeat or ack is required");
    }
  }

  @Override
  public synchronized void onError(Throwable t) {
    // The transport died or the module cancelled: whatever this stream held goes back unharmed.
    release("the stream ended (" + Status.fromThrowable(t).getCode() + ")");
  }

  @Override
  public synchronized void onCompleted() {
    if (phase == Phase.DONE) {
      return;
    }
    release("the module half-closed the stream");
    out.onCompleted();
  }

  private void onHello(Hello hello) {
    if (phase != Phase.AWAITING_HELLO) {
      protocolError("hello: a stream says Hello once, first");
      return;
    }
    if (!MODULE_ID.matcher(hello.getModuleId()).matches()) {
      protocolError(
          "hello.module_id: must be non-blank letters, digits, '.', '_' or '-' (it names"
              + " topic pipestream.module.<module_id>), got \""
              + hello.getModuleId()
              + "\"");
      return;
    }
    moduleId = hello.getModuleId();
    instanceId = hello.getInstanceId();
    enter(Phase.WAITING);
    CompletableFuture<Void> timer = ctx.clock().after(ctx.settings().noWorkWait());
    noWorkTimer = timer;
    timer.thenRun(() -> onNoWorkTimer(timer));
    tryServe();
  }

  private void onHeartbeat(Heartbeat heartbeat) {
    if (phase != Phase.SERVING) {
      protocolError("heartbeat: no work unit is being served on this stream yet");
      return;
    }
    if (!heartbeat.getWorkUnitId().isEmpty()
        && !heartbeat.getWorkUnitId().equals(dispatch.getWorkUnitId())) {
      protocolError(
          "heartbeat.work_unit_id: must be '"
              + dispatch.getWorkUnitId()
              + "' (the unit served on this stream), got '"
              + heartbeat.getWorkUnitId()
              + "'");
      return;
    }
    armWatchdog();
    if (heartbeat.hasLog() && !heartbeat.getLog().getText().isEmpty()) {
      // Written and indexed window by window as it arrives, best effort like every unit log.
      ctx.logs().stream(dispatch, heartbeat.getLog());
    }
    Instant now = ctx.clock().now();
    // Throttle: a module beating faster than asked costs Step Functions nothing extra.
    if (Duration.between(lastRelay, now).compareTo(moduleHeartbeat.dividedBy(2)) < 0 || tokenGone) {
      return;
    }
    lastRelay = now;
    try {
      ctx.completion().heartbeat(dispatch.getTaskToken());
      ctx.counters().onHeartbeatRelayed();
    } catch (TaskTokenGoneException e) {
      // Superseded while the module works: its ack will be answered as a duplicate.
      tokenGone = true;
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "heartbeat relay for "
              + dispatch.getWorkUnitId()
              + " failed; the next heartbeat retries it",
          e);
    }
  }

  private void onAck(WorkAck ack) {
    if (phase != Phase.SERVING) {
      protocolError("ack: no work unit is being served on this stream");
      return;
    }
    // The ack span is a sibling of the module's process span under the serve span: the ack
    // carries no context of its own, and both describe this one served unit (decision 1793).
    Spans.inSpan(
        ctx.tracer(),
        "gateway.ack",
        SpanKind.SERVER,
        Traceparent.parent(serveTraceparent),
        span -> {
          annotate(span, dispatch);
          span.setAttribute("protomolt.ack_result", ack.getResultCase().name());
          settleAck(ack);
          return null;
        });
  }

  private void settleAck(WorkAck ack) {
    if (phase != Phase.SERVING) {
      protocolError("ack: no work unit is being served on this stream");
      return;
    }
    cancel(watchdog);
    enter(Phase.DONE);
    String id = dispatch.getWorkUnitId();
    String token = dispatch.getTaskToken();
    if (!ack.getWorkUnitId().equals(id)) {
      refuse(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "ack.work_unit_id: must be '"
              + id
              + "' (the unit served on this stream), got '"
              + ack.getWorkUnitId()
              + "'");
      return;
    }
    if (tokenGone || ctx.settled().contains(token)) {
      duplicate(token);
      return;
    }
    List<DocumentIndexedEvent> receipts;
    try {
      receipts = SinkReceipts.checked(dispatch, hydrated.stream(), ack.getIndexingReceiptsList());
    } catch (IllegalArgumentException e) {
      refuse(RejectReason.REJECT_REASON_INVALID_INPUT, e.getMessage());
      return;
    }
    if (!receipts.isEmpty() && ctx.receipts() == ReceiptProducer.NONE) {
      refuse(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "ack.indexing_receipts: this gateway produces no indexing receipts; the work unit is"
              + " re-buffered for a gateway that does");
      return;
    }
    try {
      switch (ack.getResultCase()) {
        case UPDATED_PAYLOAD -> {
          if (!ack.getUpdatedPayload().is(PipeDoc.class)) {
            refuse(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "ack.updated_payload: must pack a"
                    + " protomolt.data.v1.PipeDoc, got type_url '"
                    + ack.getUpdatedPayload().getTypeUrl()
                    + "'");
            return;
          }
          PipeDoc processed = ack.getUpdatedPayload().unpack(PipeDoc.class);
          // A cheap probe first: a superseded token must not cost a save.
          ctx.completion().heartbeat(token);
          PipeStream next = ctx.documents().saveResult(dispatch, hydrated, processed);
          String output = fitting(TaskOutputs.success(id, TaskOutputs.CONTINUE, next));
          // Receipts describe the saved result, and must be durable before the hop completes.
          produce(receipts);
          ctx.completion().succeed(token, output);
        }
        case NO_OP -> {
          String output = fitting(TaskOutputs.success(id, TaskOutputs.NO_OP, dispatch.getStream()));
          produce(receipts);
          ctx.completion().succeed(token, output);
        }
        case REJECT -> {
          produce(receipts);
          ctx.completion()
              .fail(token, ErrorNames.MODULE_REJECT, TaskOutputs.rejectCause(ack.getReject()));
        }
        case RETRYABLE_FAILURE -> {
          produce(receipts);
          ctx.completion()
              .fail(
                  token,
                  ErrorNames.MODULE_RETRYABLE,
                  TaskOutputs.retryableCause(ack.getRetryableFailure()));
        }
        case RESULT_NOT_SET -> {
          refuse(
              RejectReason.REJECT_REASON_INVALID_INPUT,
              "ack.result: one of updated_payload,"
                  + " no_op, reject or retryable_failure is required");
          return;
        }
      }
    } catch (InvalidProtocolBufferException e) {
      refuse(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "ack.updated_payload: the PipeDoc does not parse: " + e.getMessage());
      return;
    } catch (TaskTokenGoneException e) {
      duplicate(token);
      return;
    } catch (TaskOutputTooLargeException e) {
      outputTooLarge(ack, token, e);
      return;
    } catch (RuntimeException e) {
      couldNotComplete(e);
      return;
    }
    settle(token);
    nodeSettled(dispatch, settledAs(ack.getResultCase()));
    out.onNext(
        WorkResponse.newBuilder()
            .setAckConfirmed(AckConfirmed.newBuilder().setWorkUnitId(id).setAccepted(true))
            .build());
    out.onCompleted();
    // After the confirmation: keeping the lines is best effort and must not delay the module.
    ctx.logs().record(dispatch, ack, instanceId);
  }

  /**
   * The output, if the Work state can hold it once its ResultSelector adds the node; a result that
   * cannot would be refused by Step Functions on every attempt (decision 1656).
   */
  private String fitting(String output) {
    long bytes = TaskOutputs.workStateBytes(output, dispatch.getNodeId());
    if (bytes > PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES) {
      throw new TaskOutputTooLargeException(
          "work unit "
              + dispatch.getWorkUnitId()
              + ": the Work state's output would be "
              + bytes
              + " bytes, over Step Functions' "
              + PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES
              + "-byte limit on SendTaskSuccess output and state data",
          bytes,
          PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES);
    }
    return output;
  }

  /**
   * The result can never be handed on: the hop is failed with a typed error, which the Work state's
   * catch-all dead-letters with this limit as its cause, and the unit ends here instead of being
   * served again and again.
   */
  private void outputTooLarge(WorkAck ack, String token, TaskOutputTooLargeException e) {
    try {
      ctx.completion()
          .fail(token, ErrorNames.TASK_OUTPUT_TOO_LARGE, TaskOutputs.outputTooLargeCause(e));
    } catch (TaskTokenGoneException gone) {
      duplicate(token);
      return;
    } catch (RuntimeException unreachable) {
      couldNotComplete(unreachable);
      return;
    }
    settle(token);
    ctx.counters().onOutputTooLarge();
    answerRefused(
        RejectReason.REJECT_REASON_PAYLOAD_TOO_LARGE,
        e.getMessage()
            + "; the hop was failed with "
            + ErrorNames.TASK_OUTPUT_TOO_LARGE
            + " and dead-letters");
    ctx.logs().record(dispatch, ack, instanceId);
  }

  /** Step Functions could not be reached: the record goes back, and the module hears why. */
  private void couldNotComplete(RuntimeException e) {
    String id = dispatch.getWorkUnitId();
    LOG.log(System.Logger.Level.WARNING, "completing " + id + " failed; it is re-buffered", e);
    rebuffer();
    out.onError(
        Status.UNAVAILABLE
            .withDescription(
                "work unit "
                    + id
                    + " could not be completed ("
                    + e.getMessage()
                    + "); it is re-buffered")
            .asRuntimeException());
  }

  // ----------------------------------------------------------------------------- serving a record

  private void tryServe() {
    while (phase == Phase.WAITING) {
      Optional<PendingWork> next = ctx.source().poll(moduleId);
      if (next.isEmpty()) {
        CompletableFuture<Void> arrival = ctx.source().arrival(moduleId);
        arrivalWait = arrival;
        if (arrival.isDone()) {
          continue;
        }
        arrival.thenRun(() -> onArrival(arrival));
        return;
      }
      screenAndServe(next.get());
    }
  }

  private synchronized void onArrival(CompletableFuture<Void> arrival) {
    if (phase == Phase.WAITING && arrivalWait == arrival) {
      tryServe();
    }
  }

  private synchronized void onNoWorkTimer(CompletableFuture<Void> timer) {
    if (phase != Phase.WAITING || noWorkTimer != timer) {
      return;
    }
    cancel(arrivalWait);
    enter(Phase.DONE);
    sendNoWork();
  }

  private void sendNoWork() {
    out.onNext(
        WorkResponse.newBuilder()
            .setNoWork(
                NoWorkAvailable.newBuilder()
                    .setRetryAfterMs(ctx.settings().noWorkRetryAfter().toMillis()))
            .build());
    out.onCompleted();
  }

  /** Screens one popped record; serves it, or drains it and lets the caller pop the next. */
  private void screenAndServe(PendingWork work) {
    WorkDispatch d;
    try {
      d = WorkDispatch.parseFrom(work.payload());
    } catch (InvalidProtocolBufferException e) {
      drain(work, "poison", "record " + work.key() + " is not a WorkDispatch: " + e.getMessage());
      return;
    }
    if (d.getTaskToken().isBlank() || d.getWorkUnitId().isBlank()) {
      drain(
          work,
          "poison",
          "record "
              + work.key()
              + " has a blank "
              + (d.getTaskToken().isBlank() ? "task_token" : "work_unit_id")
              + "; nothing could complete its hop");
      return;
    }
    ctx.activity().nodeSeen(moduleId, d.getGraphId(), d.getNodeId());
    if (ctx.settled().contains(d.getTaskToken())) {
      drain(work, "already-settled", "work unit " + d.getWorkUnitId() + " was completed already");
      return;
    }
    ScreenVerdict verdict;
    try {
      verdict = ctx.screen().screen(d);
    } catch (RuntimeException e) {
      // A screen that cannot decide must not hold work back: the module's ack still settles it.
      LOG.log(
          System.Logger.Level.WARNING, "screening " + d.getWorkUnitId() + " failed; serving", e);
      verdict = ScreenVerdict.SERVE;
    }
    if (verdict instanceof ScreenVerdict.Drain(String reason, String detail)) {
      drain(work, reason, detail);
      return;
    }
    // The serve span covers hydration (its store read is a child) up to the unit's send; its
    // context rides in the unit so the module's span continues the document's trace.
    Span serve =
        ctx.tracer()
            .spanBuilder("gateway.serve")
            .setSpanKind(SpanKind.SERVER)
            .setParent(Traceparent.parent(d.getStream().getMetadata().getTraceparent()))
            .startSpan();
    annotate(serve, d);
    Scope scope = serve.makeCurrent();
    try {
      serve(work, d, serve);
    } finally {
      scope.close();
      serve.end();
    }
  }

  private void serve(PendingWork work, WorkDispatch d, Span serve) {
    HydratedUnit unit;
    try {
      unit = ctx.documents().hydrate(d);
    } catch (HydrationFailedException e) {
      serve.recordException(e);
      serve.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      failUnserved(work, d, e);
      return;
    }
    cancel(noWorkTimer);
    cancel(arrivalWait);
    pending = work;
    dispatch = d;
    hydrated = unit;
    moduleHeartbeat = ctx.settings().moduleHeartbeat(d.getHeartbeatSeconds());
    lastRelay = ctx.clock().now();
    enter(Phase.SERVING);
    WorkUnit.Builder wu =
        WorkUnit.newBuilder()
            .setWorkUnitId(d.getWorkUnitId())
            .setStream(unit.stream())
            .setNodeId(d.getNodeId())
            .setGraphId(d.getGraphId())
            .setGraphVersion(d.getGraphVersion())
            .setHeartbeatIntervalSeconds((int) Math.max(1, moduleHeartbeat.toSeconds()))
            .setAttempt(d.getAttempt())
            .setBlobContentIncluded(unit.blobContentIncluded())
            .addAllIndexPlanIds(d.getIndexPlanIdsList())
            .setStoredNodeId(SinkReceipts.storedNodeId(d, unit.stream()))
            .setLogOffset(ctx.logs().logOffset(d));
    serveTraceparent = Traceparent.current();
    wu.setTraceparent(serveTraceparent);
    if (d.hasCustomConfig()) {
      wu.setCustomConfig(d.getCustomConfig());
    }
    if (d.hasDeadline()) {
      wu.setDeadline(d.getDeadline());
    }
    ctx.counters().onServed();
    armWatchdog();
    out.onNext(WorkResponse.newBuilder().setWorkUnit(wu).build());
  }

  /** The hop cannot be served: its document is gone or the store is down. Step Functions decides. */
  private void failUnserved(PendingWork work, WorkDispatch d, HydrationFailedException e) {
    try {
      if (e.permanent()) {
        ctx.completion()
            .fail(
                d.getTaskToken(),
                ErrorNames.MODULE_REJECT,
                TaskOutputs.rejectCause(
                    Reject.newBuilder()
                        .setReason(RejectReason.REJECT_REASON_HYDRATION_FAILED)
                        .setDetail(e.getMessage())
                        .build()));
      } else {
        ctx.completion()
            .fail(
                d.getTaskToken(),
                ErrorNames.MODULE_RETRYABLE,
                TaskOutputs.retryableCause(
                    RetryableFailure.newBuilder()
                        .setReason(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY)
                        .setDetail(e.getMessage())
                        .build()));
      }
    } catch (TaskTokenGoneException gone) {
      // Nothing waits for it any more; draining it is all that is left to do.
    } catch (RuntimeException unreachable) {
      // Queued work has no heartbeat (decision 1650), so nothing would re-dispatch a hop whose
      // failure went unreported until its time to live ran out: the record goes back to the head,
      // and this module is told to come back later rather than spin on it.
      LOG.log(
          System.Logger.Level.WARNING,
          "could not fail " + d.getWorkUnitId() + "; it is re-buffered",
          unreachable);
      ctx.source().rebuffer(work);
      ctx.counters().onRebuffered();
      cancel(noWorkTimer);
      cancel(arrivalWait);
      enter(Phase.DONE);
      sendNoWork();
      return;
    }
    ctx.settled().add(d.getTaskToken());
    nodeSettled(
        d, e.permanent() ? ModuleActivity.Settled.REJECTED : ModuleActivity.Settled.RETRIED);
    drain(work, e.permanent() ? "hydration-failed" : "store-unreachable", e.getMessage());
  }

  private static void annotate(Span span, WorkDispatch d) {
    span.setAttribute(Spans.WORK_UNIT_ID, d.getWorkUnitId());
    span.setAttribute(Spans.NODE_ID, d.getNodeId());
    span.setAttribute(Spans.MODULE_ID, d.getModuleId());
    String docId = d.getStream().getDocumentRef().getDocId();
    Spans.aboutDocument(span, docId.isEmpty() ? d.getStream().getDocument().getDocId() : docId);
  }

  // --------------------------------------------------------------------------------------- endings

  private void armWatchdog() {
    cancel(watchdog);
    CompletableFuture<Void> timer = ctx.clock().after(moduleHeartbeat.multipliedBy(2));
    watchdog = timer;
    timer.thenRun(() -> onWatchdog(timer));
  }

  private synchronized void onWatchdog(CompletableFuture<Void> timer) {
    if (phase != Phase.SERVING || watchdog != timer) {
      return;
    }
    enter(Phase.DONE);
    String id = dispatch.getWorkUnitId();
    rebuffer();
    out.onError(
        Status.DEADLINE_EXCEEDED
            .withDescription(
                "no heartbeat or ack for work unit "
                    + id
                    + " within "
                    + moduleHeartbeat.multipliedBy(2)
                    + "; it is re-buffered")
            .asRuntimeException());
  }

  private void release(String why) {
    cancel(noWorkTimer);
    cancel(arrivalWait);
    cancel(watchdog);
    if (phase == Phase.SERVING) {
      LOG.log(
          System.Logger.Level.INFO,
          "work unit " + dispatch.getWorkUnitId() + " from " + instanceId + " re-buffered: " + why);
      rebuffer();
    }
    enter(Phase.DONE);
  }

  private void protocolError(String message) {
    release(message);
    out.onError(Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException());
  }

  /** A malformed ack: refused, and the record goes back so a sound worker can take it. */
  private void refuse(RejectReason reason, String detail) {
    rebuffer();
    answerRefused(reason, detail);
  }

  private void duplicate(String token) {
    ctx.counters().onDuplicate();
    ctx.settled().add(token);
    ctx.source().settle(pending);
    answerRefused(
        RejectReason.REJECT_REASON_DUPLICATE_DELIVERY,
        "the task token of work unit "
            + dispatch.getWorkUnitId()
            + " was completed or superseded; this ack changed nothing");
  }

  /** AckConfirmed{accepted=false} saying why, and the stream's end. */
  private void answerRefused(RejectReason reason, String detail) {
    out.onNext(
        WorkResponse.newBuilder()
            .setAckConfirmed(
                AckConfirmed.newBuilder()
                    .setWorkUnitId(dispatch.getWorkUnitId())
                    .setAccepted(false)
                    .setReject(Reject.newBuilder().setReason(reason).setDetail(detail)))
            .build());
    out.onCompleted();
  }

  private void produce(List<DocumentIndexedEvent> receipts) {
    if (!receipts.isEmpty()) {
      ctx.receipts().produce(receipts);
    }
  }

  private void settle(String token) {
    ctx.activity().acked(moduleId, Duration.between(servedAt, ctx.clock().now()));
    ctx.settled().add(token);
    ctx.source().settle(pending);
    ctx.counters().onSettled();
  }

  /** How an accepted ack settled its hop; only the four results reach a completion. */
  private static ModuleActivity.Settled settledAs(WorkAck.ResultCase result) {
    return switch (result) {
      case UPDATED_PAYLOAD, NO_OP -> ModuleActivity.Settled.DONE;
      case REJECT -> ModuleActivity.Settled.REJECTED;
      case RETRYABLE_FAILURE -> ModuleActivity.Settled.RETRIED;
      case RESULT_NOT_SET -> throw new IllegalStateException("an ack without a result settled");
    };
  }

  private void nodeSettled(WorkDispatch d, ModuleActivity.Settled how) {
    ctx.activity().nodeSettled(moduleId, d.getGraphId(), d.getNodeId(), how);
  }

  private void rebuffer() {
    ctx.source().rebuffer(pending);
    ctx.counters().onRebuffered();
  }

  private void drain(PendingWork work, String reason, String detail) {
    LOG.log(System.Logger.Level.DEBUG, "drained (" + reason + "): " + detail);
    ctx.source().settle(work);
    ctx.counters().onDrained(reason);
  }

  /**
   * Moves to {@code next}, keeping the task's activity per module in step: a stream is open from
   * its Hello until it is done, and a unit is in flight while it is served.
   */
  private void enter(Phase next) {
    Phase was = phase;
    phase = next;
    if (was == next) {
      return;
    }
    if (was == Phase.AWAITING_HELLO && next != Phase.DONE) {
      ctx.activity().streamOpened(moduleId);
    } else if (was != Phase.AWAITING_HELLO && next == Phase.DONE) {
      ctx.activity().streamClosed(moduleId);
    }
    if (next == Phase.SERVING) {
      servedAt = ctx.clock().now();
      ctx.activity().unitServed(moduleId);
      ctx.activity().nodeServed(moduleId, dispatch.getGraphId(), dispatch.getNodeId());
    } else if (was == Phase.SERVING) {
      ctx.activity().unitReleased(moduleId);
      ctx.activity().nodeReleased(moduleId, dispatch.getGraphId(), dispatch.getNodeId());
    }
  }

  private static void cancel(CompletableFuture<Void> f) {
    if (f != null) {
      f.cancel(false);
    }
  }
}
