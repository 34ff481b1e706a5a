package dev.protomolt.gateway;

import com.zaxxer.hikari.HikariDataSource;
import dev.protomolt.access.LedgerPool;
import dev.protomolt.access.MskBootstrap;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.metrics.EmbeddedMetricFormatSink;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.engine.graphs.DatasourceGrantGrpcService;
import dev.protomolt.engine.graphs.IndexPlanGrpcService;
import dev.protomolt.engine.graphs.PostgresDatasourceGrants;
import dev.protomolt.engine.graphs.PostgresIndexPlans;
import dev.protomolt.gateway.access.GatewayAccess;
import dev.protomolt.gateway.access.StsCallerIdentities;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.doclog.PostgresPartAnnotations;
import dev.protomolt.repository.grpc.PipeDocGrpcService;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresGraphVersions;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
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
  private final AccountEventFeed accountEvents;

  private GatewayMain(
      GatewayConfig config, List<BindableService> extraServices, MetricsSink metrics)
      throws IOException {
    // Sessions run on virtual threads; sixteen connections cover them without crowding the proxy.
    this.dataSource =
        LedgerPool.open(
            config.database(), DefaultCredentialsProvider.builder().build(), "gateway-ledger", 16);
    this.s3 = new S3Clients(config.objectStores(), List.of());
    String bootstrap =
        MskBootstrap.servers(
            config.brokers(),
            new MskBootstrap(
                UrlConnectionHttpClient.create(),
                DefaultCredentialsProvider.builder().build(),
                config.region(),
                MskBootstrap.awsEndpoint(config.region())));
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
            Clock.systemUTC());
    // A deactivated account stops being served by this task within a poll of its event
    // (decision 1744), whichever task's account-events consumer applied it to the ledger.
    this.accountEvents = new AccountEventFeed(bootstrap, connection, accountStatus::apply);
    accountEvents.start();
    var sfnBuilder =
        SfnClient.builder()
            .region(Region.of(config.region()))
            .httpClient(UrlConnectionHttpClient.create());
    config.stepFunctionsEndpoint().ifPresent(sfnBuilder::endpointOverride);
    this.sfn = sfnBuilder.build();
    this.source =
        new KafkaWorkSource(
            bootstrap,
            connection,
            config.consumerGroup(),
            config.modules(),
            config.partitionCapacity());
    // Sink modules' receipts reach the indexing ledger through here (WorkAck.indexing_receipts).
    this.receipts = new KafkaReceiptProducer(bootstrap, connection, Duration.ofSeconds(30));
    GatewayClock clock = GatewayClock.system();
    PostgresLogPartIndex logIndex = new PostgresLogPartIndex(dataSource);
    PostgresDocumentLogStore logStore = new PostgresDocumentLogStore(dataSource);
    this.workUnitLogs = new DocumentWorkUnitLogs(new DocumentLog(logStore, logIndex), logIndex);
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
            new StoreWorkDocuments(store, new ReferencedBlobs(drives, blobs)),
            clock,
            GatewaySettings.defaults(),
            workUnitLogs,
            receipts);
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(config.port()))
            // Every door, module work and operator alike, answers only callers STS vouches for
            // and only for what the stack lets their principal do (decisions 1740, 1741).
            .intercept(
                new GatewayAccess(
                    new StsCallerIdentities(config.stsEndpoint(), Clock.systemUTC()),
                    config.principals()))
            // Sessions block on Step Functions and the store; virtual threads make that cheap.
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .addService(gateway)
            .addService(new PipeDocGrpcService(store, new ReplayQuery(dataSource)))
            .addService(
                new DocumentLogGrpcService(
                    logStore, logIndex, new PostgresPartAnnotations(dataSource, Clock.systemUTC())))
            // Sink modules declare their index plans here and operators grant datasources across
            // accounts: both doors only need the ledger, so the gateway serves them in every
            // environment (decisions 1620, 1621).
            .addService(
                new IndexPlanGrpcService(new PostgresIndexPlans(dataSource, Clock.systemUTC())))
            .addService(
                new DatasourceGrantGrpcService(
                    new PostgresDatasourceGrants(dataSource, Clock.systemUTC())));
    extraServices.forEach(builder::addService);
    this.server = builder.build().start();
    // The stack scales the service on this backlog (ModuleGateway): measured each minute, written
    // as an EMF line that the awslogs driver ships to CloudWatch.
    Map<String, Object> adminConfig = new HashMap<>(connection);
    adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    this.kafkaAdmin = Admin.create(adminConfig);
    ModuleBacklog backlog =
        new ModuleBacklog(
            kafkaAdmin, config.consumerGroup(), config.modules(), Duration.ofSeconds(30));
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

  /** Starts everything; the returned gateway is serving. */
  public static GatewayMain start(GatewayConfig config) throws IOException {
    return new GatewayMain(
        config, List.of(), EmbeddedMetricFormatSink.stdout(config.environmentName()));
  }

  /**
   * Starts everything and serves {@code extraServices} on the same port: the local platform adds
   * the graph door there, so one address answers every gRPC call a user makes.
   */
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
    backlogReports.shutdownNow();
    accountEvents.close();
    receipts.close();
    kafkaAdmin.close();
    source.close();
    purgeEvents.close();
    sfn.close();
    s3.close();
    dataSource.close();
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
