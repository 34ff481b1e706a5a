package dev.protomolt.lambda.wiring;

import dev.protomolt.access.tracing.XRayTraceSource;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.metrics.EmbeddedMetricFormatSink;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.db.Migrations;
import dev.protomolt.engine.activation.EngineFunctions;
import dev.protomolt.engine.activation.GraphAdministration;
import dev.protomolt.engine.activation.KafkaTopicProvisioning;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.AdmissionService;
import dev.protomolt.engine.admission.ForgettableIntake;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.engine.deadletters.DeadLetterQuarantine;
import dev.protomolt.engine.deadletters.KafkaDeadLetterTopics;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.KafkaGraphEventPublisher;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.StoredVersionSource;
import dev.protomolt.engine.hop.CompleteService;
import dev.protomolt.engine.hop.DispatchService;
import dev.protomolt.engine.hop.DlqReprocessService;
import dev.protomolt.engine.hop.DlqService;
import dev.protomolt.engine.hop.ExecutionTranscripts;
import dev.protomolt.engine.hop.HopContext;
import dev.protomolt.engine.hop.HopMetrics;
import dev.protomolt.engine.hop.PipeDocStoreStaging;
import dev.protomolt.engine.hop.PrepareService;
import dev.protomolt.engine.hop.SfnTaskTokenCompletion;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.engine.replay.ReplayPages;
import dev.protomolt.engine.replay.ReplayValidation;
import dev.protomolt.engine.replay.SourceRefetch;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.lambda.accounts.AccountProvisioning;
import dev.protomolt.lambda.accounts.IntakeNotificationRules;
import dev.protomolt.lambda.accounts.S3IntakeNotificationRules;
import dev.protomolt.lambda.console.ConsoleActions;
import dev.protomolt.lambda.console.ConsoleApiHandler;
import dev.protomolt.lambda.console.OperatorCheck;
import dev.protomolt.lambda.handlers.TracedHandler;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.ledger.IndexingLedger;
import dev.protomolt.repository.ledger.IndexingReceipts;
import dev.protomolt.repository.ledger.SourceSettlement;
import dev.protomolt.repository.memo.PostgresHopMemos;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.purge.DeletionRequests;
import dev.protomolt.repository.purge.StoragePurger;
import dev.protomolt.repository.purge.UploadPurgeProofs;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.retention.RetentionSweeper;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3UploadObjects;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Builds the named handler a container serves from {@link ContainerClients}: the production
 * wiring of each function, in one place. Building a handler builds its service (and so its clients)
 * on the spot; the Quarkus app asks for it on the first invocation and keeps it.
 */
public final class FunctionWiring {

  /** How long a compiled graph version stays cached in a container before it is re-read. */
  static final Duration GRAPH_CACHE_TTL = Duration.ofMinutes(30);

  /**
   * Admission only resolves aliases and starts executions; it never creates a state machine, so
   * the role a created machine would run as is never sent. The adapter still insists on an ARN.
   */
  static final String INTAKE_ROLE =
      "arn:aws:iam::aws:role/protomolt-intake-creates-no-state-machines";

  private final ContainerClients clients;
  private final TenancyDirectory tenancy;
  private final IntakeNotificationRules intakeRules;
  private final MetricsSink metrics;

  /**
   * The AWS wiring: graph admin's DESIGN-mode tenancy check reads datasource ownership from the
   * ledger's {@code datasource_bindings}, which account events fill (decision 0672), and the
   * datasource grants (decision 1620), which admission also checks. The pool is
   * only built when a check first asks.
   */
  public FunctionWiring(ContainerClients clients) {
    this(clients, (MetricsSink) null);
  }

  /**
   * The AWS wiring with the DLQ and purge functions' metrics going to {@code metrics} instead of
   * EMF lines on stdout: the local cloud's runtime passes its recording sink, as CloudWatch
   * collects what a deployed function emits.
   */
  public FunctionWiring(ContainerClients clients, MetricsSink metrics) {
    this(clients, ledgerTenancy(clients), null, metrics);
  }

  private static TenancyDirectory ledgerTenancy(ContainerClients clients) {
    return new TenancyDirectory() {
      @Override
      public java.util.Optional<String> datasourceAccount(String datasourceId) {
        return new PostgresDatasourceBindings(clients.dataSource()).datasourceAccount(datasourceId);
      }

      @Override
      public boolean granted(String datasourceId, String accountId) {
        return new PostgresDatasourceBindings(clients.dataSource())
            .granted(datasourceId, accountId);
      }
    };
  }

  /**
   * @param tenancy the directory graph validation asks who owns a datasource
   * @param intakeRules how account provisioning adds intake notification rules; null for S3's own
   *     bucket notifications (which the local cloud's S3 also serves, decision 1506)
   */
  public FunctionWiring(
      ContainerClients clients, TenancyDirectory tenancy, IntakeNotificationRules intakeRules) {
    this(clients, tenancy, intakeRules, null);
  }

  /**
   * @param metrics where the DLQ and purge functions emit their metrics; null for CloudWatch's
   *     embedded metric format on stdout, tagged with {@code PROTOMOLT_ENV} (the local cloud
   *     installs a recording sink instead)
   */
  public FunctionWiring(
      ContainerClients clients,
      TenancyDirectory tenancy,
      IntakeNotificationRules intakeRules,
      MetricsSink metrics) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.tenancy = Objects.requireNonNull(tenancy, "tenancy");
    this.intakeRules = intakeRules;
    this.metrics = metrics;
  }

  /**
   * The handler named {@code name}.
   *
   * @throws IllegalArgumentException naming the known handlers when {@code name} is none of them
   */
  public EventHandler handler(String name) {
    return TracedHandler.DOCUMENT_WALK.contains(name)
        ? new TracedHandler(name, clients.tracing(), untraced(name))
        : untraced(name);
  }

  /**
   * Dispatch of a hop's work unit to its module, for the dispatch and complete functions. It
   * writes no transcript line: Prepare records the hand-over.
   */
  private DispatchService dispatch(HopContext hops) {
    return new DispatchService(hops, metrics(), memos(), new SfnTaskTokenCompletion(clients.sfn()));
  }

  private EventHandler untraced(String name) {
    return switch (name) {
      case "graph-admin" -> {
        GraphAdministration graphs = graphAdministration();
        yield NamedHandlers.graphAdmin(graphs.admin(), graphs.activation());
      }
      case "intake" -> NamedHandlers.intake(intake());
      case "dlq-admin" -> NamedHandlers.dlqAdmin(dlqAdmin());
      case "replay-validate" -> NamedHandlers.replayValidate(replayValidation());
      case "console-api" -> consoleApi();
      case "replay-page" -> NamedHandlers.replayPage(replayPages());
      case "prepare" ->
          NamedHandlers.prepare(new PrepareService(hops(transcripts()), hopMetrics()));
      case "dispatch" -> NamedHandlers.dispatch(dispatch(hops(ExecutionTranscripts.OFF)));
      case "complete" -> {
        HopContext hops = hops(transcripts());
        // A direct Complete hands the next node's work on itself (decision 1842).
        yield NamedHandlers.complete(
            new CompleteService(
                hops, hopMetrics(), memos(), clients.tracing().tracer(), dispatch(hops)));
      }
      case "dlq" ->
          NamedHandlers.dlq(
              new DlqService(
                  hops(transcripts()), metrics(), new SfnTaskTokenCompletion(clients.sfn())));
      case "purge" ->
          NamedHandlers.purge(
              new StoragePurger(
                  clients.dataSource(),
                  new S3BlobStore(clients.s3()),
                  new PostgresDriveDirectory(clients.dataSource()),
                  clients.clock()),
              metrics());
      case "reclaim" ->
          NamedHandlers.reclaim(
              new ReclaimService(clients.store()), new DeletionRequests(clients.store()));
      case "indexing-ledger" -> NamedHandlers.indexingLedger(indexingLedger());
      case "settlement" ->
          NamedHandlers.settlement(
              new IndexingReceipts(
                  indexingLedger(),
                  new SourceSettlement(
                      clients.dataSource(),
                      new PostgresLedgerStore(clients.dataSource()),
                      new S3BlobStore(clients.s3()),
                      new PostgresDriveDirectory(clients.dataSource()),
                      clients.clock())));
      case "account-events" ->
          NamedHandlers.accountEvents(
              new AccountProvisioning(
                  clients.store(),
                  new PostgresDriveDirectory(clients.dataSource())::find,
                  intakeRules != null
                      ? intakeRules
                      : new S3IntakeNotificationRules(
                          clients.s3()::forDrive, clients.environment().intakeFunctionArn()),
                  new PostgresDatasourceBindings(clients.dataSource())::bind,
                  new PostgresDatasourceBindings(clients.dataSource())::markForgettable));
      case "reconciler" ->
          NamedHandlers.reconciler(
              reconciler(), () -> new LedgerDrives(clients.dataSource()).all());
      case "retention" ->
          NamedHandlers.retention(
              new RetentionSweeper(
                  clients.dataSource(),
                  clients.store(),
                  clients.environment().retentionWindow(),
                  RetentionSweeper.DEFAULT_MINIMUM,
                  clients.clock()),
              clients.environment().retentionBatch());
      // Lazy on purpose: a Delete event touches neither the database nor Kafka.
      case "migrate" ->
          NamedHandlers.migrate(
              () -> Migrations.apply(clients.dataSource()),
              topics -> new KafkaTopics(clients.kafkaAdmin()).ensure(topics));
      default ->
          throw new IllegalArgumentException(
              "handler name '"
                  + name
                  + "' is unknown; the zip"
                  + " serves "
                  + String.join(", ", NamedHandlers.NAMES));
    };
  }

  /** Payload size, history and latency per hop, in embedded metric format (decision 1792). */
  private HopMetrics hopMetrics() {
    return new HopMetrics(metrics(), Clock.systemUTC());
  }

  private MetricsSink metrics() {
    return metrics != null
        ? metrics
        : EmbeddedMetricFormatSink.stdout(clients.environment().environmentName());
  }

  /** The hops' transcripts in the ledger database, unless the environment turns them off. */
  private ExecutionTranscripts transcripts() {
    if (!clients.environment().executionTranscripts()) {
      return ExecutionTranscripts.OFF;
    }
    // Transcripts are never sealed by the hops (an execution's last hop is not known to any one
    // of them), so they need no original store (decision 1675).
    return ExecutionTranscripts.writingTo(
        new DocumentLog(
            new PostgresDocumentLogStore(clients.dataSource()),
            new PostgresLogPartIndex(clients.dataSource())));
  }

  /** The memo index in the ledger database (decisions 1812, 1813). */
  private HopMemos memos() {
    return new PostgresHopMemos(clients.dataSource(), clients.clock());
  }

  private HopContext hops(ExecutionTranscripts transcripts) {
    PipelineCelEnvironment cel = PipelineCelEnvironment.create();
    return new HopContext(
        new GraphCache(
            new StoredVersionSource(new PostgresGraphStore(clients.dataSource())),
            cel,
            clients.clock(),
            GRAPH_CACHE_TTL),
        new PipeDocStoreStaging(clients.store()),
        clients.events(),
        clients.clock(),
        HopContext.DEFAULT_INLINE_LIMIT,
        transcripts,
        new SealedStreams(clients.dataKeys()));
  }

  // The replay state machine's steps read the ledger, write the replay audit tables and start
  // executions (the role is never used to create a machine); a page also fetches a settled
  // intake copy's source again, so it reads the intake drive and saves intake copies.
  private ReplayValidation replayValidation() {
    return new ReplayValidation(
        new ReplayQuery(clients.dataSource()),
        new ReplayAudit(clients.dataSource()),
        new PostgresGraphStore(clients.dataSource()),
        new SfnStateMachines(clients.sfn(), INTAKE_ROLE),
        clients.clock());
  }

  private ReplayPages replayPages() {
    return new ReplayPages(
        new ReplayQuery(clients.dataSource()),
        new ReplayAudit(clients.dataSource()),
        new PostgresGraphStore(clients.dataSource()),
        new SfnStateMachines(clients.sfn(), INTAKE_ROLE),
        new SourceRefetch(
            new PostgresLedgerStore(clients.dataSource()),
            new PostgresDriveDirectory(clients.dataSource()),
            new S3BlobStore(clients.s3()),
            new S3UploadObjects(clients.s3()),
            clients.store()),
        clients.clock(),
        duration -> Thread.sleep(duration));
  }

  private DeadLetterAdmin dlqAdmin() {
    PostgresGraphStore graphs = new PostgresGraphStore(clients.dataSource());
    // Reprocessing only starts executions on published versions, as intake and replay do.
    return new DeadLetterAdmin(
        graphs,
        new KafkaDeadLetterTopics(clients::kafkaConnection),
        new DeadLetterQuarantine(clients.dataSource()),
        new DlqReprocessService(graphs, new SfnStateMachines(clients.sfn(), INTAKE_ROLE)),
        clients.clock());
  }

  private IntakeService intake() {
    PostgresGraphStore graphs = new PostgresGraphStore(clients.dataSource());
    SfnStateMachines machines = new SfnStateMachines(clients.sfn(), INTAKE_ROLE);
    AdmissionService admission =
        new AdmissionService(
            new SubscriptionLookup(graphs::subscriptions, clients.clock(), Duration.ZERO),
            graphs,
            machines,
            new PostgresAdmissionLog(clients.dataSource()),
            clients.clock(),
            tenancy);
    // Every upload's metadata is read for a right-to-be-forgotten declaration (decision 1747), and
    // its datasource's setting, which wins over the metadata (decision 1512).
    return new IntakeService(
        clients.store(),
        admission,
        clients.clock(),
        new ForgettableIntake(
            new PostgresDriveDirectory(clients.dataSource()),
            new S3UploadObjects(clients.s3()),
            new UploadPurgeProofs(clients.dataSource()),
            clients.clock(),
            new SealedStreams(clients.dataKeys()),
            new PostgresDatasourceBindings(clients.dataSource())::forgettable));
  }

  /**
   * The console API over graph admin with activation attached, so its deploy compiles and
   * publishes exactly as {@code graph-admin}'s activate does; drafts in the stack's drafts
   * table (the graph door's); replay on the replay state machine, redrive, and dead letters
   * through the dlq-admin door's service (decision 1771).
   */
  private EventHandler consoleApi() {
    GraphAdministration graphs = graphAdministration();
    FunctionEnvironment env = clients.environment();
    String replayMachine = env.replayStateMachineArn();
    return NamedHandlers.consoleApi(
        OperatorCheck.iamSigned(env.consoleOperatorGrants()),
        graphs.admin(),
        new DraftService(
            new DynamoDbDraftStore(clients.dynamo(), env.draftsTable()),
            graphs.validator(),
            clients.clock()),
        new ConsoleApiHandler.DocumentRunsSource(
            new PostgresAdmissionLog(clients.dataSource()),
            clients.sfn(),
            clients.store(),
            // Built on the first trace read: a cold start that reads no trace makes no client.
            docId -> new XRayTraceSource(clients.xray(), clients.clock()).tracesNaming(docId),
            // Read only: transcripts and work-unit logs are written by the hops and the gateway.
            new DocumentLog(
                new PostgresDocumentLogStore(clients.dataSource()),
                new PostgresLogPartIndex(clients.dataSource()))),
        () -> new KafkaTopics(clients.kafkaAdmin()).moduleIds(),
        new ConsoleActions(
            clients.sfn(),
            replayMachine,
            ConsoleActions.executionPrefix(replayMachine, env.environmentName()),
            new ReplayAudit(clients.dataSource()),
            dlqAdmin()));
  }

  /** Graph admin with activation attached, built as the gateway's graph door builds it. */
  private GraphAdministration graphAdministration() {
    FunctionEnvironment env = clients.environment();
    return GraphAdministration.wire(
        clients.dataSource(),
        clients.sfn(),
        env.executionRoleArn(),
        new EngineFunctions(
            env.environmentName(),
            env.hopFunctionArn("PREPARE"),
            env.hopFunctionArn("DISPATCH"),
            env.hopFunctionArn("COMPLETE"),
            env.hopFunctionArn("DLQ")),
        new KafkaGraphEventPublisher(clients.producer(), ContainerClients.KAFKA_TIMEOUT),
        tenancy,
        new KafkaTopicProvisioning(clients.kafkaAdmin(), ContainerClients.KAFKA_TIMEOUT),
        clients.clock());
  }

  private IndexingLedger indexingLedger() {
    return new IndexingLedger(clients.dataSource(), clients.clock());
  }

  private StorageReconciler reconciler() {
    ReconcilerSettings settings = ReconcilerSettings.dryRun();
    return new StorageReconciler(
        clients.dataSource(),
        new S3BlobStore(clients.s3()),
        clients.environment().reconcilerDeletes() ? settings.deleting() : settings,
        clients.clock());
  }
}
