package dev.protomolt.engine.hop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.core.orchestration.TaskTokenCompletion;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.engine.activation.EngineTestClients;
import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.AdmissionService;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.graphs.PostgresDatasourceGrants;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import dev.protomolt.engine.graphs.StoredVersionSource;
import dev.protomolt.localstack.cloud.LocalStepFunctionsLauncher;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.sfn.LambdaInvoker;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.memo.PostgresHopMemos;
import dev.protomolt.tracing.Tracing;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The engine's hop services wired to the local Step Functions runtime through its
 * {@link LambdaInvoker}, exactly as the Lambda handlers will call them (JSON in, JSON out, a
 * thrown exception's class name as the Lambda errorType), plus activation and admission over embedded
 * PostgreSQL. The test plays the module: it takes WorkDispatch records and completes their task
 * tokens through {@link SfnClient}.
 */
final class HopHarness implements AutoCloseable {

  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final ObjectMapper JSON = new ObjectMapper();

  final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  final RecordingStaging staging = new RecordingStaging();
  final RecordingEventBus events = new RecordingEventBus();
  final RecordingMetricsSink metrics = new RecordingMetricsSink("test");
  final DataSource dataSource;
  final PostgresGraphStore store;
  final HopContext context;
  final PrepareService prepare;
  final DispatchService dispatch;
  final CompleteService complete;
  final DlqService dlq;
  final LocalStepFunctions runtime;
  final SfnClient sfn;
  final GraphAdminService admin;
  final GraphActivationService activation;
  final AdmissionService admission;
  final IntakeService intake;
  final PostgresDatasourceBindings owners;
  final PostgresDatasourceGrants grants;

  /** The runtime's clock: heartbeats, timeouts and retry waits happen only when a test advances it. */
  final dev.protomolt.localstack.sfn.FakeClock sfnClock =
      new dev.protomolt.localstack.sfn.FakeClock(Instant.parse("2026-03-01T12:00:00Z"));

  /** The memo index in the store's database when the harness memoizes, else {@code NONE}. */
  final HopMemos memos;

  HopHarness() {
    this(HopContext.DEFAULT_INLINE_LIMIT);
  }

  HopHarness(int inlineLimitBytes) {
    this(inlineLimitBytes, ds -> ExecutionTranscripts.OFF);
  }

  /** Dispatch and Complete memoize (decision 1812), the memo index beside the real store. */
  static HopHarness memoizing() {
    return new HopHarness(HopContext.DEFAULT_INLINE_LIMIT, ds -> ExecutionTranscripts.OFF, true);
  }

  HopHarness(
      int inlineLimitBytes,
      java.util.function.Function<DataSource, ExecutionTranscripts> transcripts) {
    this(inlineLimitBytes, transcripts, false);
  }

  /** @param transcripts the hops' transcripts, given the harness's freshly migrated database */
  private HopHarness(
      int inlineLimitBytes,
      java.util.function.Function<DataSource, ExecutionTranscripts> transcripts,
      boolean memoize) {
    DataSource ds = EngineDatabase.fresh();
    this.dataSource = ds;
    store = new PostgresGraphStore(ds);
    owners = new PostgresDatasourceBindings(ds);
    grants = new PostgresDatasourceGrants(ds, clock);
    // Owners are the test datasources' fixed ones; grants are real rows a test makes.
    TenancyDirectory tenancy =
        new TenancyDirectory() {
          @Override
          public java.util.Optional<String> datasourceAccount(String datasourceId) {
            return owners
                .datasourceAccount(datasourceId)
                .or(() -> EngineDatabase.TENANCY.datasourceAccount(datasourceId));
          }

          @Override
          public boolean granted(String datasourceId, String accountId) {
            return owners.granted(datasourceId, accountId);
          }
        };
    context =
        new HopContext(
            new GraphCache(
                new StoredVersionSource(store), EngineDatabase.CEL, clock, Duration.ofMinutes(30)),
            staging,
            events,
            clock,
            inlineLimitBytes,
            transcripts.apply(ds));
    prepare = new PrepareService(context, new HopMetrics(metrics, clock));
    memos =
        memoize
            ? new PostgresHopMemos(RecordingStaging.harness().postgres.dataSource(), clock)
            : HopMemos.NONE;
    // The runtime starts after the services: its client is read when a memoized hop completes.
    TaskTokenCompletion tokens =
        new TaskTokenCompletion() {
          @Override
          public void succeed(String token, String output) {
            new SfnTaskTokenCompletion(sfn()).succeed(token, output);
          }

          @Override
          public void fail(String token, String error, String cause) {
            new SfnTaskTokenCompletion(sfn()).fail(token, error, cause);
          }
        };
    dispatch = new DispatchService(context, metrics, memos, tokens);
    complete =
        new CompleteService(
            context, new HopMetrics(metrics, clock), memos, Tracing.off().tracer(), dispatch);
    dlq = new DlqService(context, metrics, tokens);
    runtime = LocalStepFunctions.start(0, ds, lambdas(), sfnClock);
    sfn = EngineTestClients.sfn(runtime.endpoint());
    admin =
        new GraphAdminService(
            store,
            new StepFunctionsVersionPins(sfn, store),
            event -> {},
            GraphValidator.standard(EngineDatabase.CEL, tenancy),
            clock);
    SfnStateMachines machines = new SfnStateMachines(sfn, EngineTestClients.ROLE);
    activation = new GraphActivationService(admin, machines, EngineTestClients.FUNCTIONS);
    admission =
        new AdmissionService(
            new SubscriptionLookup(store::subscriptions, clock, Duration.ZERO),
            store,
            machines,
            new PostgresAdmissionLog(ds),
            clock,
            tenancy);
    intake = new IntakeService(RecordingStaging.store(), admission, clock);
  }

  /**
   * The hop services registered as functions of the local Lambda runner, invoked through the same
   * adapter the local cloud gives Step Functions: a thrown exception's class name becomes the
   * errorType, exactly as AWS's Java runtime reports it, so the compiled Retry and Catch see the
   * names production sees.
   */
  private LambdaInvoker lambdas() {
    LocalLambdaRunner runner = new LocalLambdaRunner("us-east-1", "000000000000");
    runner.register("prepare", (event, ctx) -> prepare.handle(event));
    runner.register("dispatch", (event, ctx) -> dispatch.handle(event));
    runner.register("complete", (event, ctx) -> complete.handle(event));
    runner.register("dlq", (event, ctx) -> dlq.handle(event));
    return LocalStepFunctionsLauncher.invokerFor(runner);
  }

  private SfnClient sfn() {
    return sfn;
  }

  /** The next work dispatch the engine produced, as a module worker would receive it. */
  WorkDispatch nextDispatch() throws Exception {
    RecordingEventBus.Produced record =
        events.dispatches.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    if (record == null) {
      throw new AssertionError("no work dispatched within " + PATIENCE);
    }
    WorkDispatch work = WorkDispatch.parseFrom(record.value());
    if (!record.key().equals(work.getWorkUnitId())) {
      throw new AssertionError(
          "dispatch keyed " + record.key() + " but carries " + work.getWorkUnitId());
    }
    return work;
  }

  /** The step records the hops produced on pipeline-events, in order. */
  List<StepExecutionRecord> steps() {
    return events.on(EventBus.PIPELINE_EVENTS).stream()
        .map(
            p -> {
              try {
                return StepExecutionRecord.parseFrom(p.value());
              } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
              }
            })
        .toList();
  }

  /** The module's CONTINUE ack, as the gateway sends it. */
  void succeed(WorkDispatch work, PipeStream updated) throws InvalidProtocolBufferException {
    ObjectNode ack = JSON.createObjectNode();
    ack.put("workUnitId", work.getWorkUnitId());
    ack.put("outcome", "CONTINUE");
    ack.set("stream", tree(updated));
    sfn.sendTaskSuccess(b -> b.taskToken(work.getTaskToken()).output(ack.toString()));
  }

  void reject(WorkDispatch work, String reason, String detail) {
    sfn.sendTaskFailure(
        b ->
            b.taskToken(work.getTaskToken())
                .error("Module.Reject")
                .cause("{\"reason\":\"" + reason + "\",\"detail\":\"" + detail + "\"}"));
  }

  DescribeExecutionResponse awaitClosed(String executionArn) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (sfn.describeExecution(b -> b.executionArn(executionArn)).status()
        == ExecutionStatus.RUNNING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("execution " + executionArn + " did not close within " + PATIENCE);
      }
      Thread.sleep(5);
    }
    return sfn.describeExecution(b -> b.executionArn(executionArn));
  }

  static JsonNode tree(PipeStream stream) throws InvalidProtocolBufferException {
    try {
      return JSON.readTree(JsonFormat.printer().print(stream));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    sfn.close();
    runtime.close();
  }
}
