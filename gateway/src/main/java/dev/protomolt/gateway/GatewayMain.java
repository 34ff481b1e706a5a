package dev.protomolt.gateway;

import com.zaxxer.hikari.HikariDataSource;
import dev.protomolt.access.AwsClientSettings;
import dev.protomolt.access.LedgerPool;
import dev.protomolt.access.MskBootstrap;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogOriginals;
import dev.protomolt.core.graph.DraftStore;
import dev.protomolt.core.metrics.EmbeddedMetricFormatSink;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.rtbf.DataKeys;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.deadletters.DeadLetterTopicNames;
import dev.protomolt.engine.graphs.DatasourceGrantGrpcService;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.IndexPlanGrpcService;
import dev.protomolt.engine.graphs.PlatformRunsGrpcService;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.graphs.PostgresDatasourceGrants;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.PostgresIndexPlans;
import dev.protomolt.gateway.access.GatewayAccess;
import dev.protomolt.gateway.access.PrincipalRateLimit;
import dev.protomolt.gateway.access.StsCallerIdentities;
import dev.protomolt.gateway.diagnostics.AdminHttpServer;
import dev.protomolt.gateway.diagnostics.ClaimCheckProbe;
import dev.protomolt.gateway.diagnostics.DiagnosticsSettings;
import dev.protomolt.gateway.diagnostics.DraftsProbe;
import dev.protomolt.gateway.diagnostics.EngineDiagnosticsGrpcService;
import dev.protomolt.gateway.diagnostics.HopProbe;
import dev.protomolt.gateway.diagnostics.KafkaCanaryProbe;
import dev.protomolt.gateway.diagnostics.StateMachineProbe;
import dev.protomolt.gateway.diagnostics.StorageCoherenceCheck;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.doclog.PostgresPartAnnotations;
import dev.protomolt.repository.doclog.S3LogOriginals;
import dev.protomolt.repository.grpc.PipeDocGrpcService;
import dev.protomolt.repository.memo.PostgresHopMemos;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresGraphVersions;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.postgres.PostgresNodeTallies;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageCoherence;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.rtbf.KmsDataKeys;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import dev.protomolt.tracing.Tracing;
import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The gateway process: ModuleWorkService and the document store's gRPC door on one port, wired to
 * Kafka, Step Functions, PostgreSQL and S3 from {@link GatewayConfig}. Runs until SIGTERM.
 */
public final class GatewayMain implements AutoCloseable {

  private final Server server;
  private final KafkaWorkSource source;
  private final SfnClient sfn;
  private final S3Clients s3;
  private final KafkaPurgeEvents purgeEvents;
  private final HikariDataSource dataSource;
  private final ModuleWorkGateway gateway;
  private final DocumentWorkUnitLogs workUnitLogs;
  private final Admin kafkaAdmin;
  private final KafkaReceiptProducer receipts;
  private final ScheduledExecutorService backlogReports;
  private final GraphDoor graphDoor;
  private final Optional<DynamoDbClient> dynamo;
  private final Optional<AdminHttpServer> admin;
  private final AccountEventFeed accountEvents;
  private final Tracing tracing;
  private final BacklogSignals signals;
  private KmsClient kms;

  private GatewayMain(
      GatewayConfig config, List<BindableService> extraServices, MetricsSink metrics)
      throws IOException {
    this.tracing = config.traces().open("gateway");
    // Sessions run on virtual threads; sixteen connections cover them without crowding the proxy.
    this.dataSource =
        LedgerPool.open(config.database(), config.aws().credentials(), "gateway-ledger", 16);
    this.s3 = new S3Clients(config.objectStores(), List.of());
    String bootstrap =
        MskBootstrap.servers(
            config.brokers(),
            new MskBootstrap(
                UrlConnectionHttpClient.create(),
                config.aws().credentials(),
                config.region(),
                config
                    .aws()
                    .endpoint(AwsClientSettings.KAFKA)
                    .orElse(MskBootstrap.awsEndpoint(config.region()))));
    Map<String, Object> connection = config.brokers().connection();
    this.purgeEvents = new KafkaPurgeEvents(bootstrap, connection);
    S3BlobStore blobs = new S3BlobStore(s3);
    PostgresDriveDirectory drives = new PostgresDriveDirectory(dataSource);
    EventDeclaredAccountStatus accountStatus =
        new EventDeclaredAccountStatus(
            new CachedAccountStatus(new PostgresAccountStatus(dataSource)));
    PipeDocStore store =
        new PipeDocStore(
            new PostgresLedgerStore(dataSource),
            blobs,
            drives,
            accountStatus,
            purgeEvents,
            Clock.systemUTC(),
            tracing.tracer());
    // A deactivated account stops being served by this task within a poll of its event
    // (decision 1744), whichever task's account-events consumer applied it to the ledger.
    this.accountEvents = new AccountEventFeed(bootstrap, connection, accountStatus::apply);
    accountEvents.start();
    var sfnBuilder =
        SfnClient.builder()
            .region(Region.of(config.region()))
            .credentialsProvider(config.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    config.stepFunctionsEndpoint().ifPresent(sfnBuilder::endpointOverride);
    this.sfn = sfnBuilder.build();
    GatewayClock clock = GatewayClock.system();
    this.source =
        new KafkaWorkSource(
            bootstrap,
            connection,
            config.consumerGroup(),
            config.modules(),
            config.partitionCapacity(),
            config.accountShares(),
            clock);
    // Sink modules' receipts reach the indexing ledger through here (WorkAck.indexing_receipts).
    this.receipts = new KafkaReceiptProducer(bootstrap, connection, Duration.ofSeconds(30));
    PostgresLogPartIndex logIndex = new PostgresLogPartIndex(dataSource);
    PostgresDocumentLogStore logStore = new PostgresDocumentLogStore(dataSource);
    // Sealing stores each log's original in the log bucket when the stack names one (decision
    // 1674); without it a seal records the hash and the text stays readable from its parts.
    LogOriginals originals =
        config
            .logBucket()
            .<LogOriginals>map(
                bucket ->
                    new S3LogOriginals(
                        s3, bucket, GatewayConfig.LOG_CREDENTIALS_REF, config.region()))
            .orElse(LogOriginals.NONE);
    DocumentLog documentLog = new DocumentLog(logStore, logIndex, originals);
    this.workUnitLogs = new DocumentWorkUnitLogs(documentLog, logIndex);
    SfnTaskCompletion completion = new SfnTaskCompletion(sfn);
    this.gateway =
        new ModuleWorkGateway(
            source,
            completion,
            WorkScreen.allOf(
                new DeadlineScreen(clock),
                new DeadGraphScreen(
                    new PostgresGraphVersions(dataSource)::exists, Duration.ofSeconds(30)),
                new SfnExecutionScreen(sfn, Duration.ofSeconds(5)),
                new TaskTokenScreen(completion)),
            new SealedWorkDocuments(
                new StoreWorkDocuments(store, new ReferencedBlobs(drives, blobs)),
                new SealedStreams(dataKeys(config))),
            clock,
            GatewaySettings.defaults(),
            workUnitLogs,
            receipts,
            tracing.tracer());
    // The admin port's diagnostics shell is checked by the same keeper (decision 1798).
    GatewayAccess access =
        new GatewayAccess(
            new StsCallerIdentities(config.stsEndpoint(), config.audience(), Clock.systemUTC()),
            config.principals(),
            new PrincipalRateLimit(
                config.operatorCallsPerSecond(),
                2 * config.operatorCallsPerSecond(),
                Clock.systemUTC()));
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(config.port()))
            // Every door, module work and operator alike, answers only callers STS vouches for
            // and only for what the stack lets their principal do (decisions 1740, 1741).
            .intercept(access)
            // Sessions block on Step Functions and the store; virtual threads make that cheap.
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .addService(gateway)
            .addService(new PipeDocGrpcService(store, new ReplayQuery(dataSource)))
            .addService(
                new DocumentLogGrpcService(
                    documentLog,
                    logStore,
                    logIndex,
                    originals,
                    new PostgresPartAnnotations(dataSource, Clock.systemUTC())))
            // Sink modules declare their index plans here and operators grant datasources across
            // accounts: both doors only need the ledger, so the gateway serves them in every
            // environment (decisions 1620, 1621).
            .addService(
                new IndexPlanGrpcService(new PostgresIndexPlans(dataSource, Clock.systemUTC())))
            .addService(
                new DatasourceGrantGrpcService(
                    new PostgresDatasourceGrants(dataSource, Clock.systemUTC())))
            // What operators' tools read about document runs, so none of them opens the
            // database (decision 1523).
            .addService(
                new PlatformRunsGrpcService(
                    new PostgresDatasourceBindings(dataSource),
                    new PostgresAdmissionLog(dataSource),
                    new PostgresNodeTallies(dataSource),
                    new ReplayAudit(dataSource),
                    new PostgresGraphStore(dataSource)));
    Map<String, Object> adminConfig = new HashMap<>(connection);
    adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    this.kafkaAdmin = Admin.create(adminConfig);
    ModuleBacklog groupBacklog =
        new ModuleBacklog(
            kafkaAdmin, config.consumerGroup(), config.modules(), Duration.ofSeconds(30));
    BacklogSignals backlog =
        new BacklogSignals(
            source::queue, gateway.activity(), groupBacklog, config.modules(), clock);
    this.signals = backlog;
    // Operators read the same figures on demand (`protomolt status`, decision 1655), with each
    // node's letters counted on the topics its versions name (decision 1659).
    PostgresGraphStore graphVersions = new PostgresGraphStore(dataSource);
    builder.addService(
        new ModuleBacklogGrpcService(
            backlog,
            groupBacklog,
            new PostgresHopMemos(dataSource, Clock.systemUTC())::reusesByModule,
            (graph, node) ->
                groupBacklog.recordsOn(
                    DeadLetterTopicNames.ofNode(graphVersions.versions(graph), node))));
    // One DynamoDB client for the drafts table, shared by the graph door and the drafts probe,
    // signed
    // with the task's own credentials like every other client here.
    DiagnosticsSettings diagnosticsSettings = config.diagnostics();
    this.dynamo =
        config.graphDoor().isPresent()
                || (diagnosticsSettings.enabled() && diagnosticsSettings.draftsTable().isPresent())
            ? Optional.of(dynamo(config))
            : Optional.empty();
    // Graph drafts, create-and-activate and subscriptions reach callers in every environment
    // through here, built as the graph-admin function builds graph admin.
    this.graphDoor =
        config.graphDoor().isPresent()
            ? GraphDoor.open(
                config.graphDoor().get(),
                config,
                dynamo.orElseThrow(),
                dataSource,
                sfn,
                kafkaAdmin,
                bootstrap,
                connection)
            : null;
    if (graphDoor != null) {
      builder.addService(graphDoor.service());
    }
    extraServices.forEach(builder::addService);
    // Off, the diagnostics door is simply never built: gRPC answers UNIMPLEMENTED and the admin
    // port 404, exactly as for a gateway that has no such code (decision 1790).
    Optional<EngineDiagnosticsGrpcService> diagnostics =
        diagnosticsSettings.enabled()
            ? Optional.of(diagnostics(config, bootstrap, connection, drives, blobs))
            : Optional.empty();
    diagnostics.ifPresent(builder::addService);
    this.server = builder.build().start();
    this.admin =
        diagnosticsSettings.adminPort().isPresent()
            ? Optional.of(
                AdminHttpServer.start(
                    diagnosticsSettings.adminPort().getAsInt(), diagnostics, access))
            : Optional.empty();
    // The stack scales the service on these signals (ModuleGateway, decisions 1653 and 1654):
    // measured each minute, written as EMF lines that the awslogs driver ships to CloudWatch.
    this.backlogReports =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("gateway-backlog").unstarted(r));
    backlogReports.scheduleAtFixedRate(
        () -> {
          try {
            backlog.report(metrics);
          } catch (RuntimeException e) {
            // A missed minute leaves a gap in the metric; the next minute tries again.
            System.err.println("gateway: module backlog not measured: " + e.getMessage());
          }
        },
        1,
        60,
        TimeUnit.SECONDS);
  }

  private EngineDiagnosticsGrpcService diagnostics(
      GatewayConfig config,
      String bootstrap,
      Map<String, Object> connection,
      PostgresDriveDirectory drives,
      S3BlobStore blobs) {
    PostgresGraphStore graphs = new PostgresGraphStore(dataSource);
    Optional<DraftStore> drafts =
        dynamo.map(
            client ->
                new DynamoDbDraftStore(client, config.diagnostics().draftsTable().orElseThrow()));
    return new EngineDiagnosticsGrpcService(
        new EngineDiagnosticsGrpcService.Probes(
            config.effective(),
            new KafkaCanaryProbe(bootstrap, connection, Duration.ofSeconds(10)),
            new ClaimCheckProbe(drives, blobs),
            new DraftsProbe(
                drafts, config.diagnostics().draftsTable().orElse("(none)"), Clock.systemUTC()),
            new HopProbe(graphs, PipelineCelEnvironment.create()),
            new StateMachineProbe(graphs, sfn),
            new StorageCoherenceCheck(
                drives,
                new StorageCoherence(
                    dataSource,
                    // A survey never deletes, whatever these settings say; dry-run ones all the
                    // same.
                    new StorageReconciler(
                        dataSource, blobs, ReconcilerSettings.dryRun(), Clock.systemUTC()),
                    ReconcilerSettings.DEFAULT_SAMPLE,
                    Clock.systemUTC()))));
  }

  /**
   * The data keys right-to-be-forgotten bodies are sealed under: KMS {@code Decrypt} of the wrapped
   * keys in the ledger (decision 1509). Without {@code PROTOMOLT_DATA_KEY_ARN} every use is refused
   * naming it, and only such units are affected.
   */
  private DataKeys dataKeys(GatewayConfig config) {
    if (config.dataKeyArn().isEmpty()) {
      return DataKeys.unconfigured(
          PlatformVariable.DATA_KEY_ARN.key()
              + " is not set, so this gateway cannot open a right-to-be-forgotten body for a"
              + " module");
    }
    var builder =
        KmsClient.builder()
            .region(Region.of(config.region()))
            .credentialsProvider(config.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    config.aws().endpoint(AwsClientSettings.KMS).ifPresent(builder::endpointOverride);
    this.kms = builder.build();
    return new KmsDataKeys(kms, config.dataKeyArn().get(), dataSource);
  }

  private static DynamoDbClient dynamo(GatewayConfig config) {
    var builder =
        DynamoDbClient.builder()
            .region(Region.of(config.region()))
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(config.aws().credentials());
    config.diagnostics().dynamoDbEndpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  /** The admin HTTP port, when one is configured. */
  public Optional<Integer> adminPort() {
    return admin.map(AdminHttpServer::port);
  }

  /** Starts everything; the returned gateway is serving. */
  public static GatewayMain start(GatewayConfig config) throws IOException {
    return new GatewayMain(
        config, List.of(), EmbeddedMetricFormatSink.stdout(config.environmentName()));
  }

  /** Starts everything and serves {@code extraServices} on the same port. */
  public static GatewayMain start(GatewayConfig config, List<BindableService> extraServices)
      throws IOException {
    return start(config, extraServices, EmbeddedMetricFormatSink.stdout(config.environmentName()));
  }

  /**
   * As above, emitting the gateway's metrics to {@code metrics} instead of EMF lines on stdout: the
   * local cloud records them so a test can read them back.
   */
  public static GatewayMain start(
      GatewayConfig config, List<BindableService> extraServices, MetricsSink metrics)
      throws IOException {
    return new GatewayMain(
        config, List.copyOf(extraServices), Objects.requireNonNull(metrics, "metrics"));
  }

  public int port() {
    return server.getPort();
  }

  /** This task's backlog per module service, measured now (what the signals report each minute). */
  public List<BacklogSignals.ModuleServiceBacklog> backlog() {
    return signals.measure();
  }

  public GatewayCounters counters() {
    return gateway.counters();
  }

  /** Completes once this gateway hears every account event written from now on. */
  java.util.concurrent.CompletableFuture<Void> accountEventsPositioned() {
    return accountEvents.positioned();
  }

  /** The modules' work-unit logs this gateway keeps in PostgreSQL: readable and searchable. */
  public DocumentWorkUnitLogs workUnitLogs() {
    return workUnitLogs;
  }

  @Override
  public void close() {
    server.shutdown();
    try {
      server.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.shutdownNow();
    admin.ifPresent(AdminHttpServer::close);
    backlogReports.shutdownNow();
    if (graphDoor != null) {
      graphDoor.close();
    }
    dynamo.ifPresent(DynamoDbClient::close);
    accountEvents.close();
    receipts.close();
    kafkaAdmin.close();
    source.close();
    purgeEvents.close();
    sfn.close();
    if (kms != null) {
      kms.close();
    }
    s3.close();
    dataSource.close();
    tracing.close();
  }

  public static void main(String[] args) throws Exception {
    GatewayConfig config;
    try {
      config = GatewayConfig.from(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("gateway: bad configuration: " + e.getMessage());
      System.exit(2);
      return;
    }
    GatewayMain main = start(config);
    System.out.println(
        "gateway listening on port "
            + main.port()
            + " for modules "
            + config.modules()
            + ", callers verified at "
            + config.stsEndpoint()
            + " ("
            + config.principals().summary()
            + ")");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  main.close();
                  stopped.countDown();
                }));
    stopped.await();
  }
}
