package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.AckConfirmed;
import dev.protomolt.proto.module.v1.Heartbeat;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkUnit;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import dev.protomolt.tracing.Tracing;
import io.grpc.Channel;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demand-pull worker loop. Each slot is one virtual thread that opens a short stream, says
 * Hello, and either processes the WorkUnit it gets (heartbeating meanwhile) or pauses on
 * NoWorkAvailable; then it opens the next stream.
 *
 * <p>Concurrency ramps with demand: a slot that receives work starts another slot unless some slot
 * is already waiting for work, up to {@link WorkerConfig#maxConcurrency()}; a slot told there is no
 * work retires if another slot is idle too, so an idle worker holds exactly one poller. A stream
 * error only ends that stream: the slot backs off and reconnects on the same {@link Channel}, which
 * the worker never closes (its owner does).
 */
public final class ModuleWorker implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ModuleWorker.class.getName());

  /** What a slot is doing; the ramp decisions read these under the worker's lock. */
  public enum SlotState {
    POLLING,
    BUSY,
    PAUSED,
    RECONNECTING
  }

  private final WorkerConfig config;
  private final DocumentProcessor processor;
  private final WorkerClock clock;
  private final Tracer tracer;
  private final ModuleWorkServiceGrpc.ModuleWorkServiceStub stub;
  private final List<Slot> slots = new ArrayList<>();
  private final AtomicLong slotNumbers = new AtomicLong();
  private final AtomicLong completedUnits = new AtomicLong();
  private final AtomicLong refusedAcks = new AtomicLong();
  private boolean started;
  private boolean stopping;

  public ModuleWorker(
      Channel channel, WorkerConfig config, DocumentProcessor processor, WorkerClock clock) {
    this(channel, config, processor, clock, Tracing.off().tracer());
  }

  /**
   * @param tracer records a {@code <module id>.process} span per work unit, continuing the trace
   *     of the unit's {@code traceparent} (decision 1793)
   */
  public ModuleWorker(
      Channel channel,
      WorkerConfig config,
      DocumentProcessor processor,
      WorkerClock clock,
      Tracer tracer) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.stub = ModuleWorkServiceGrpc.newStub(Objects.requireNonNull(channel, "channel"));
    this.config = Objects.requireNonNull(config, "config");
    this.processor = Objects.requireNonNull(processor, "processor");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Starts the first poller; more follow as work appears. */
  public synchronized void start() {
    if (started) {
      throw new IllegalStateException("worker " + config.instanceId() + " already started");
    }
    started = true;
    startSlot();
  }

  public synchronized int slotCount() {
    return slots.size();
  }

  public synchronized List<SlotState> slotStates() {
    return slots.stream().map(slot -> slot.state).toList();
  }

  /** Work units whose ack the gateway confirmed as accepted. */
  public long completedUnits() {
    return completedUnits.get();
  }

  /** Acks the gateway refused (e.g. REJECT_REASON_DUPLICATE_DELIVERY for a superseded unit). */
  public long refusedAcks() {
    return refusedAcks.get();
  }

  /**
   * Stops taking work: idle streams are cancelled (the gateway re-buffers anything it popped for
   * them), pauses end, and busy slots finish their unit, ack it and then exit.
   */
  public void shutdown() {
    List<Slot> current;
    synchronized (this) {
      stopping = true;
      current = List.copyOf(slots);
    }
    for (Slot slot : current) {
      slot.stop();
    }
  }

  /** Waits (in real time, for callers) until every slot has exited. */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Thread thread;
      synchronized (this) {
        if (slots.isEmpty()) {
          return true;
        }
        thread = slots.getFirst().thread;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      if (thread != null) {
        thread.join(Duration.ofNanos(left));
      } else {
        TimeUnit.MILLISECONDS.sleep(1);
      }
    }
  }

  /** Interrupts busy processors; each then acks a RetryableFailure if its stream is still open. */
  public void shutdownNow() {
    shutdown();
    List<Slot> current;
    synchronized (this) {
      current = List.copyOf(slots);
    }
    for (Slot slot : current) {
      if (slot.thread != null) {
        slot.thread.interrupt();
      }
    }
  }

  /** Graceful shutdown: busy processors get {@link WorkerConfig#shutdownGrace()}, then interrupts. */
  @Override
  public void close() {
    shutdown();
    try {
      if (!awaitTermination(config.shutdownGrace())) {
        shutdownNow();
        awaitTermination(Duration.ofSeconds(5));
      }
    } catch (InterruptedException e) {
      // Closing from an interrupted thread: stop at once and keep the interrupt for the caller.
      shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void startSlot() {
    Slot slot = new Slot(slotNumbers.incrementAndGet());
    slots.add(slot);
    slot.thread =
        Thread.ofVirtual().name(config.moduleId() + "-slot-" + slot.number).unstarted(slot::run);
    slot.thread.start();
  }

  private synchronized boolean isStopping() {
    return stopping;
  }

  /** Called by a slot that just received work: start another poller if none is waiting. */
  private synchronized void rampUpFrom(Slot busy) {
    busy.state = SlotState.BUSY;
    if (stopping || slots.size() >= config.maxConcurrency()) {
      return;
    }
    boolean someoneWaiting =
        slots.stream()
            .anyMatch(
                slot ->
                    slot != busy
                        && (slot.state == SlotState.POLLING || slot.state == SlotState.PAUSED));
    if (!someoneWaiting) {
      startSlot();
    }
  }

  /** Called by a slot told there is no work: it retires if another slot is idle as well. */
  private synchronized boolean retireIfRedundant(Slot idle) {
    boolean anotherIdle =
        slots.stream().anyMatch(slot -> slot != idle && slot.state != SlotState.BUSY);
    if (anotherIdle) {
      slots.remove(idle);
      return true;
    }
    idle.state = SlotState.PAUSED;
    return false;
  }

  private synchronized void setState(Slot slot, SlotState state) {
    slot.state = state;
  }

  private synchronized void remove(Slot slot) {
    slots.remove(slot);
  }

  /** How one stream ended, which decides what the slot does next. */
  private sealed interface StreamEnd {
    record Worked() implements StreamEnd {}

    record NoWork(long retryAfterMs) implements StreamEnd {}

    record Failed(String why) implements StreamEnd {}
  }

  private final class Slot {
    private final long number;
    private volatile Thread thread;
    private volatile SlotState state = SlotState.POLLING;
    private volatile WorkStream stream;
    private volatile CompletableFuture<Void> pause;

    Slot(long number) {
      this.number = number;
    }

    void run() {
      int failures = 0;
      try {
        while (!isStopping()) {
          StreamEnd end = oneStream();
          switch (end) {
            case StreamEnd.Worked w -> failures = 0;
            case StreamEnd.NoWork noWork -> {
              failures = 0;
              if (retireIfRedundant(this)) {
                return;
              }
              long ms = noWork.retryAfterMs();
              waitFor(ms > 0 ? Duration.ofMillis(ms) : config.noWorkPause());
            }
            case StreamEnd.Failed failed -> {
              setState(this, SlotState.RECONNECTING);
              Duration delay = config.reconnect().delayAfter(failures++);
              LOG.log(
                  Level.WARNING,
                  "{0} slot {1}: stream failed ({2}); reconnecting in {3} ms",
                  config.moduleId(),
                  number,
                  failed.why(),
                  Long.toString(delay.toMillis()));
              waitFor(delay);
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        remove(this);
      }
    }

    /** Waits on the worker clock; shutdown cuts the wait short. */
    private void waitFor(Duration delay) throws InterruptedException {
      CompletableFuture<Void> wait = clock.after(delay);
      pause = wait;
      if (isStopping()) {
        wait.cancel(false);
      }
      try {
        wait.get();
      } catch (CancellationException e) {
        // Shutdown ended the pause early; the loop condition sees it.
      } catch (ExecutionException e) {
        throw new IllegalStateException("worker clock failed a wait", e.getCause());
      } finally {
        pause = null;
      }
    }

    void stop() {
      CompletableFuture<Void> currentPause = pause;
      if (currentPause != null) {
        currentPause.cancel(false);
      }
      WorkStream current = stream;
      if (current != null && state == SlotState.POLLING) {
        current.cancel("module worker shutting down");
      }
    }

    private StreamEnd oneStream() throws InterruptedException {
      setState(this, SlotState.POLLING);
      WorkStream work = WorkStream.open(stub);
      stream = work;
      try {
        if (isStopping()) {
          work.cancel("module worker shutting down");
          return new StreamEnd.Failed("shutting down");
        }
        work.send(
            WorkRequest.newBuilder()
                .setHello(
                    Hello.newBuilder()
                        .setModuleId(config.moduleId())
                        .setInstanceId(config.instanceId()))
                .build());
        return switch (work.next()) {
          case WorkStream.Event.Closed closed ->
              new StreamEnd.Failed("closed before a work unit: " + describe(closed));
          case WorkStream.Event.Message message ->
              switch (message.response().getMessageCase()) {
                case NO_WORK -> {
                  work.finish();
                  yield new StreamEnd.NoWork(message.response().getNoWork().getRetryAfterMs());
                }
                case WORK_UNIT -> workOn(work, message.response().getWorkUnit());
                default -> {
                  work.cancel("unexpected first response");
                  yield new StreamEnd.Failed(
                      "expected work_unit or no_work after hello, got "
                          + message.response().getMessageCase());
                }
              };
        };
      } finally {
        stream = null;
      }
    }

    private StreamEnd workOn(WorkStream work, WorkUnit unit) throws InterruptedException {
      rampUpFrom(this);
      if (work.isClosed()) {
        // Cancelled (shutdown) between the unit arriving and us taking it: the gateway re-buffers.
        return new StreamEnd.Failed("stream closed before processing began");
      }
      WorkContext context = WorkContext.forUnit(unit, clock::now);
      Duration interval =
          unit.getHeartbeatIntervalSeconds() > 0
              ? Duration.ofSeconds(unit.getHeartbeatIntervalSeconds())
              : config.defaultHeartbeat();
      HeartbeatTimer heartbeats =
          new HeartbeatTimer(
              clock,
              interval,
              () ->
                  work.send(
                      WorkRequest.newBuilder()
                          .setHeartbeat(heartbeat(unit.getWorkUnitId(), context))
                          .build()));
      Instant started = clock.now();
      ModuleOutcome outcome;
      heartbeats.start();
      try {
        outcome = runProcessor(context);
      } finally {
        heartbeats.stop();
      }
      long processingMs = Duration.between(started, clock.now()).toMillis();
      // The log streams: what no heartbeat carried yet rides the ack, at its offset.
      WorkAck ack =
          WorkAckEncoder.encode(
                  unit.getWorkUnitId(), outcome, List.of(), context.receipts(), processingMs)
              .toBuilder()
              .setLog(context.takeUnsentLog())
              .build();
      if (!work.send(WorkRequest.newBuilder().setAck(ack).build())) {
        return new StreamEnd.Failed(
            "stream closed while processing "
                + unit.getWorkUnitId()
                + "; the gateway redelivers it");
      }
      return switch (work.next()) {
        case WorkStream.Event.Closed closed ->
            new StreamEnd.Failed("closed before AckConfirmed: " + describe(closed));
        case WorkStream.Event.Message message -> {
          work.finish();
          if (!message.response().hasAckConfirmed()) {
            yield new StreamEnd.Failed(
                "expected ack_confirmed, got " + message.response().getMessageCase());
          }
          noteConfirmation(message.response().getAckConfirmed());
          yield new StreamEnd.Worked();
        }
      };
    }

    private static Heartbeat heartbeat(String workUnitId, WorkContext context) {
      Heartbeat.Builder heartbeat =
          Heartbeat.newBuilder().setWorkUnitId(workUnitId).setProgress(context.progress());
      LogText log = context.takeUnsentLog();
      if (!log.getText().isEmpty()) {
        heartbeat.setLog(log);
      }
      return heartbeat.build();
    }

    private static String outcomeName(ModuleOutcome outcome) {
      return outcome == null ? "null" : outcome.getClass().getSimpleName();
    }

    private ModuleOutcome runProcessor(WorkContext context) {
      PipeStream pipeStream = context.stream();
      if (pipeStream.getPayloadCase() != PipeStream.PayloadCase.DOCUMENT) {
        return new ModuleOutcome.Reject(
            RejectReason.REJECT_REASON_HYDRATION_FAILED,
            "work_unit.stream.document is missing (payload is "
                + pipeStream.getPayloadCase()
                + "): the gateway must hydrate the document before serving it");
      }
      String inputDocId = context.document().getDocId();
      ModuleOutcome outcome;
      Span span =
          Spans.aboutDocument(
                  tracer
                      .spanBuilder(config.moduleId() + ".process")
                      .setSpanKind(SpanKind.CONSUMER)
                      .setParent(Traceparent.parent(context.unit().getTraceparent())),
                  inputDocId)
              .setAttribute(Spans.WORK_UNIT_ID, context.workUnitId())
              .setAttribute(Spans.MODULE_ID, config.moduleId())
              .startSpan();
      Scope scope = span.makeCurrent();
      try {
        outcome = processor.process(context);
        span.setAttribute("protomolt.outcome", outcomeName(outcome));
      } catch (Throwable thrown) {
        if (thrown instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        if (thrown instanceof DocumentRejectedException rejected) {
          // An explicit reject is an answer, not a failure: no stack trace in the log.
          LOG.log(Level.INFO, "{0} rejected: {1}", context.workUnitId(), rejected.getMessage());
        } else {
          LOG.log(Level.WARNING, "processor failed on " + context.workUnitId(), thrown);
        }
        span.recordException(thrown);
        span.setStatus(StatusCode.ERROR, thrown.getClass().getSimpleName());
        return ProcessorFailure.outcomeOf(thrown);
      } finally {
        scope.close();
        span.end();
      }
      if (outcome == null) {
        return new ModuleOutcome.Reject(
            RejectReason.REJECT_REASON_MODULE_ERROR,
            "processor " + processor.getClass().getName() + " returned null instead of an outcome");
      }
      if (outcome instanceof ModuleOutcome.Updated(var updated)
          && !updated.getDocId().equals(inputDocId)) {
        return new ModuleOutcome.Reject(
            RejectReason.REJECT_REASON_MODULE_ERROR,
            "updated_payload.doc_id \""
                + updated.getDocId()
                + "\" differs from the input doc_id \""
                + inputDocId
                + "\": a module must not change a document's identity");
      }
      return outcome;
    }

    private void noteConfirmation(AckConfirmed confirmed) {
      if (confirmed.getAccepted()) {
        completedUnits.incrementAndGet();
      } else {
        refusedAcks.incrementAndGet();
        LOG.log(
            Level.INFO,
            "gateway refused the ack for {0}: {1} {2}",
            confirmed.getWorkUnitId(),
            confirmed.getReject().getReason(),
            confirmed.getReject().getDetail());
      }
    }
  }

  private static String describe(WorkStream.Event.Closed closed) {
    return closed.status().isOk()
        ? "the server completed the call"
        : closed.status().getCode() + " " + Objects.toString(closed.status().getDescription(), "");
  }
}
