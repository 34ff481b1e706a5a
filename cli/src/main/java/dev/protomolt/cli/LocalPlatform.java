package dev.protomolt.cli;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.engine.activation.EngineFunctions;
import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.activation.KafkaTopicProvisioning;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.admission.AdmissionService;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.engine.deadletters.DeadLetterQuarantine;
import dev.protomolt.engine.deadletters.KafkaDeadLetterTopics;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.KafkaGraphEventPublisher;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.PostgresIndexPlans;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import dev.protomolt.engine.graphs.StoredVersionSource;
import dev.protomolt.engine.hop.CompleteService;
import dev.protomolt.engine.hop.DispatchService;
import dev.protomolt.engine.hop.DlqReprocessService;
import dev.protomolt.engine.hop.DlqService;
import dev.protomolt.engine.hop.ExecutionTranscripts;
import dev.protomolt.engine.hop.HopContext;
import dev.protomolt.engine.hop.KafkaEventBus;
import dev.protomolt.engine.hop.PipeDocStoreStaging;
import dev.protomolt.engine.hop.PrepareService;
import dev.protomolt.engine.replay.ReplayPages;
import dev.protomolt.engine.replay.ReplayValidation;
import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.gateway.GatewayCounters;
import dev.protomolt.gateway.GatewayMain;
import dev.protomolt.gateway.KafkaPurgeEvents;
import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.lambda.console.ConsoleActions;
import dev.protomolt.lambda.console.ConsoleApiHandler;
import dev.protomolt.lambda.console.OperatorCheck;
import dev.protomolt.localstack.apigw.HttpApiFront;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.lambda.api.FunctionConfiguration;
import dev.protomolt.localstack.s3.S3NotificationRule;
import dev.protomolt.localstack.template.TemplateDeployer;
import dev.protomolt.localstack.template.TemplatePlan;
import dev.protomolt.module.samples.chunker.ChunkerModule;
import dev.protomolt.module.samples.chunker.DocumentChunker;
import dev.protomolt.module.samples.embedder.DocumentEmbedder;
import dev.protomolt.module.samples.embedder.EmbedderModule;
import dev.protomolt.module.samples.parser.DocumentParser;
import dev.protomolt.module.samples.parser.ParserModule;
import dev.protomolt.module.samples.sink.DocumentIndexSink;
import dev.protomolt.module.samples.sink.IndexSearch;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.module.samples.sink.JsonLinesReceiptSink;
import dev.protomolt.module.samples.sink.LuceneIndex;
import dev.protomolt.module.samples.sink.UlidGenerator;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DriveBinding;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import dev.protomolt.statemachines.ReplayMachine;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineAlreadyExistsException;

/**
 * The whole platform in one JVM: the local cloud, the engine's hop services and intake registered
 * as its Lambda functions, the intake bucket's notification, the gateway on a loopback port and the
 * four sample modules as gRPC clients of it. Production wiring is reused, never re-done: the
 * gateway is {@link GatewayMain} started from the same configuration keys ECS gives it.
 */
public final class LocalPlatform implements AutoCloseable {

  public static final String INTAKE_BUCKET = "protomolt-intake";
  public static final String STORE_BUCKET = "protomolt-store";
  public static final String CLUSTER = "local";

  /**
   * Where the store writes intake copies inside the intake bucket: outside every account's upload
   * prefix, so the store's own objects never notify intake (decision 0951).
   */
  public static final String INTAKE_COPIES_PREFIX = "_intake-copies/";

  /** The credentials reference every locally provisioned drive names. */
  static final String CREDENTIALS_REF = "platform";

  /** The replay state machine's name, as the stack names it for the local environment. */
  static final String REPLAY_MACHINE = "protomolt-" + CLUSTER + "-replay";

  static final String ROLE = "arn:aws:iam::" + LocalCloud.ACCOUNT_ID + ":role/protomolt-local";
  static final List<String> MODULES =
      List.of(
          ParserModule.MODULE_ID,
          ChunkerModule.MODULE_ID,
          EmbedderModule.MODULE_ID,
          IndexSinkModule.MODULE_ID);

  private final LocalCloud cloud;
  private final S3Clients s3;
  private final KafkaPurgeEvents purgeEvents;
  private final KafkaProducer<String, byte[]> producer;
  private final SfnClient sfn;
  private final PipeDocStore store;
  private final PostgresDatasourceBindings tenancy;
  private final GraphAdminService admin;
  private final GraphActivationService activation;
  private final Admin kafkaAdmin;
  private final GatewayMain gateway;
  // The local cloud stands in for CloudWatch: the gateway's metrics are kept here, readable by
  // tests and drivers, instead of printed among the command's own output.
  private final RecordingMetricsSink metrics = new RecordingMetricsSink(CLUSTER);
  private final DynamoDbClient consoleDrafts;
  private final HttpApiFront console;
  private final LuceneIndex index;
  private final Path indexDir;
  private final ManagedChannel channel;
  private final List<ModuleWorker> workers = new ArrayList<>();
  private final Map<String, DocumentProcessor> processors = new LinkedHashMap<>();
  private final Set<String> notifiedAccounts = ConcurrentHashMap.newKeySet();

  private LocalPlatform(LocalCloud cloud, int gatewayPort, int consolePort) throws IOException {
    this.cloud = cloud;
    LocalCloudEndpoints ep = cloud.endpoints();
    DataSource ds = cloud.database();
    Clock clock = Clock.systemUTC();
    PipelineCelEnvironment cel = PipelineCelEnvironment.create();
    this.tenancy = new PostgresDatasourceBindings(ds);

    this.s3 =
        new S3Clients(
            Map.of(
                CREDENTIALS_REF,
                ObjectStoreSettings.staticKeys(ep.s3(), ep.accessKeyId(), ep.secretAccessKey())),
            List.of());
    this.purgeEvents = new KafkaPurgeEvents(ep.kafkaBootstrapServers());
    this.store =
        new PipeDocStore(
            new PostgresLedgerStore(ds),
            new S3BlobStore(s3),
            new PostgresDriveDirectory(ds),
            new CachedAccountStatus(new PostgresAccountStatus(ds)),
            purgeEvents,
            clock);
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ep.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true),
            new StringSerializer(),
            new ByteArraySerializer());
    this.sfn =
        SfnClient.builder()
            .endpointOverride(
                ep.stepFunctions()
                    .orElseThrow(
                        () ->
                            new IllegalStateException(
                                "the local cloud started no Step Functions runtime")))
            .region(Region.of(ep.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build();

    PostgresGraphStore graphs = new PostgresGraphStore(ds);
    HopContext hops =
        new HopContext(
            new GraphCache(new StoredVersionSource(graphs), cel, clock, Duration.ofMinutes(30)),
            new PipeDocStoreStaging(store),
            new KafkaEventBus(producer, Duration.ofSeconds(30)),
            clock,
            HopContext.DEFAULT_INLINE_LIMIT,
            // Until the template deployment lands: the transcripts FunctionWiring gives the hops.
            ExecutionTranscripts.writingTo(
                new DocumentLog(new PostgresDocumentLogStore(ds), new PostgresLogPartIndex(ds))));
    PrepareService prepare = new PrepareService(hops);
    DispatchService dispatch = new DispatchService(hops);
    CompleteService complete = new CompleteService(hops);
    DlqService dlq = new DlqService(hops);
    var lambdas = cloud.lambdas();
    // The deployed handler classes (functions/lambda), fed the same JSON bytes AWS would send.
    register(lambdas, "prepare", NamedHandlers.prepare(prepare));
    register(lambdas, "dispatch", NamedHandlers.dispatch(dispatch));
    register(lambdas, "complete", NamedHandlers.complete(complete));
    register(lambdas, "dlq", NamedHandlers.dlq(dlq));

    // Graph changes made here reach the gateway's subscribers as any process's do: graph-updates.
    KafkaGraphEventPublisher graphEvents =
        new KafkaGraphEventPublisher(producer, Duration.ofSeconds(30));
    // The in-process sample sink declares its plan as a standalone one does when it starts.
    PostgresIndexPlans plans = new PostgresIndexPlans(ds, clock);
    plans.declare(List.of(IndexSinkModule.PLAN));
    GraphValidator validator = GraphValidator.standard(cel, tenancy, plans);
    this.admin =
        new GraphAdminService(
            graphs, new StepFunctionsVersionPins(sfn, graphs), graphEvents, validator, clock);
    SfnStateMachines machines = new SfnStateMachines(sfn, ROLE);
    // The local broker creates no topic on first write, as MSK Serverless: activation creates the
    // version's dead-letter topics, as the deployed graph-admin does (decision 1552).
    this.kafkaAdmin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ep.kafkaBootstrapServers()));
    this.activation =
        new GraphActivationService(
            admin,
            machines,
            new EngineFunctions(
                "local",
                lambdas.functionArn("prepare"),
                lambdas.functionArn("dispatch"),
                lambdas.functionArn("complete"),
                lambdas.functionArn("dlq")),
            new KafkaTopicProvisioning(kafkaAdmin, Duration.ofSeconds(30)));
    AdmissionService admission =
        new AdmissionService(
            new SubscriptionLookup(graphs::subscriptions, clock, Duration.ZERO),
            graphs,
            machines,
            new PostgresAdmissionLog(ds),
            clock,
            tenancy);
    IntakeService intake = new IntakeService(store, admission, clock);
    register(lambdas, "intake", NamedHandlers.intake(intake));

    // --- Replay state machine (decision 1700): until the local template deployment registers
    // every function and state machine from the stack, the replay steps are registered here and
    // the machine is created from the same definition the stack deploys.
    ReplayQuery replayQuery = new ReplayQuery(ds);
    ReplayAudit replayAudit = new ReplayAudit(ds);
    register(
        lambdas,
        "replay-validate",
        NamedHandlers.replayValidate(
            new ReplayValidation(replayQuery, replayAudit, graphs, machines, clock)));
    register(
        lambdas,
        "replay-page",
        NamedHandlers.replayPage(
            new ReplayPages(
                replayQuery, replayAudit, graphs, machines, clock, d -> Thread.sleep(d))));
    createReplayMachine(
        sfn,
        ep.region(),
        ReplayMachine.definition(
            lambdas.functionArn("replay-validate"), lambdas.functionArn("replay-page")));
    // --- end of the replay block
    // --- Until LocalPlatform deploys the local template: the dead-letter door (dlq-admin), on
    // the local Lambda API too, since `protomolt dlq` calls it with Invoke as in AWS. Drop this
    // block when the template's functions are deployed through FunctionWiring.
    DeadLetterAdmin deadLetters =
        new DeadLetterAdmin(
            graphs,
            new KafkaDeadLetterTopics(
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, ep.kafkaBootstrapServers())),
            new DeadLetterQuarantine(ds),
            new DlqReprocessService(graphs, machines),
            clock);
    register(lambdas, "dlq-admin", NamedHandlers.dlqAdmin(deadLetters));
    cloud
        .lambdaApi()
        .register(
            new FunctionConfiguration(
                "dlq-admin",
                lambdas.functionArn("dlq-admin"),
                "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest",
                "java21",
                60,
                512,
                Map.of(),
                ROLE,
                "list, show and reprocess dead letters",
                Map.of()),
            payload -> lambdas.invoke("dlq-admin", payload));
    // --- end of the block to drop.

    // The topics the stack's Kafka topics custom resource creates in AWS (module topics included),
    // from the synthesized local template; planning it also proves it deployable (decision 1501).
    TemplatePlan plan = LocalTemplate.plan(LocalTemplate.template(), cloud);
    TemplateDeployer.createTopics(plan, ep);
    // The template's DynamoDB tables: the gateway's graph door keeps drafts in one of them.
    TemplateDeployer.createTables(plan, ep);
    // The stack's MSK-triggered functions (reclaim, purge, indexing ledger, account events) on
    // their local event-source mappings, as infra/cdk's FunctionTriggers wires them (decision
    // 0966).
    PlatformEventSources.wire(cloud, store, s3, clock, (drive, account) -> notifyIntake(account));
    // The gateway's callers: one principal per sample module and the CLI's operator, verified by
    // the local STS as AWS's STS verifies task roles (decision 1742).
    LocalPrincipals.register(cloud.iam(), MODULES);
    this.gateway =
        GatewayMain.start(
            GatewayConfig.from(
                gatewayValues(
                    ep, gatewayPort, graphDoorValues(plan, lambdas), cloud.stsEndpoint())),
            List.of(),
            metrics);
    // Notifications are the local cloud's memory only; the accounts they serve are in Postgres.
    tenancy.accounts().forEach(this::notifyIntake);

    // --- The console (decision 1770): until the platform deploys the template, its console-api
    // function is registered here like the hop functions above, over the same admin, drafts and
    // store, and served by the local cloud's HTTP front with the console jar's assets.
    Map<String, String> graphDoor = graphDoorValues(plan, lambdas);
    this.consoleDrafts =
        DynamoDbClient.builder()
            .endpointOverride(ep.dynamoDb())
            .region(Region.of(ep.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    register(
        lambdas,
        "console-api",
        NamedHandlers.consoleApi(
            OperatorCheck.iamOfAccount(LocalCloud.ACCOUNT_ID),
            admin,
            new DraftService(
                new DynamoDbDraftStore(
                    consoleDrafts, graphDoor.get(PlatformVariable.DRAFTS_TABLE.key())),
                validator,
                clock),
            new ConsoleApiHandler.DocumentRunsSource(new PostgresAdmissionLog(ds), sfn, store),
            () -> MODULES,
            new ConsoleActions(
                sfn,
                replayMachineArn(ep.region()),
                ConsoleActions.executionPrefix(replayMachineArn(ep.region()), CLUSTER),
                replayAudit,
                deadLetters)));
    this.console =
        HttpApiFront.start(
            consolePort,
            lambdas,
            "console-api",
            HttpApiFront.Assets.classpath(
                LocalPlatform.class.getClassLoader(), "protomolt-console"),
            new HttpApiFront.Operator(
                LocalCloud.ACCOUNT_ID,
                "arn:aws:iam::" + LocalCloud.ACCOUNT_ID + ":user/local-operator"));
    // --- end of the console's registration.

    this.indexDir = ep.dataDir().resolve("index");
    this.index = LuceneIndex.open(indexDir);
    this.channel =
        NettyChannelBuilder.forAddress("127.0.0.1", gateway.port()).usePlaintext().build();
    startWorker(ParserModule.MODULE_ID, new DocumentParser(clock));
    startWorker(ChunkerModule.MODULE_ID, new DocumentChunker());
    startWorker(EmbedderModule.MODULE_ID, new DocumentEmbedder());
    // Receipts go to the file a person can read and to indexing-receipts for the ledger; the demo
    // graph's sink declares its index name as its one index plan (DemoGraph).
    JsonLinesReceiptSink receiptFile = new JsonLinesReceiptSink(indexDir.resolve("receipts.jsonl"));
    KafkaReceiptSink receiptTopic =
        new KafkaReceiptSink(producer, Duration.ofSeconds(30), IndexSinkModule.INDEX_NAME);
    startWorker(
        IndexSinkModule.MODULE_ID,
        new DocumentIndexSink(
            index,
            receipt -> {
              receiptFile.emit(receipt);
              receiptTopic.emit(receipt);
            },
            IndexSinkModule.INDEX_NAME,
            clock,
            new UlidGenerator(clock, new SecureRandom())));
  }

  /** Starts the local cloud with {@code settings} and everything on top of it. */
  public static LocalPlatform start(LocalCloudSettings settings, int gatewayPort) {
    return start(settings, gatewayPort, 0);
  }

  /**
   * Starts the local cloud and everything on top of it, the console on {@code consolePort} (0:
   * any free loopback port).
   */
  public static LocalPlatform start(LocalCloudSettings settings, int gatewayPort, int consolePort) {
    LocalCloud cloud = LocalCloud.start(settings);
    try {
      return new LocalPlatform(cloud, gatewayPort, consolePort);
    } catch (IOException | RuntimeException e) {
      cloud.close();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("the local platform did not start: " + io.getMessage(), io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Creates the account with its two drives on the local buckets (intake copies: {@code
   * protomolt-intake/_intake-copies/<account>/}, pipeline: {@code
   * protomolt-store/<account>/pipeline/}), binds each datasource to it and notifies intake of every
   * object uploaded under {@code protomolt-intake/<account>/}. Provisioning again is harmless.
   */
  public void provisionAccount(String accountId, String... datasourceIds) {
    requireAccountId(accountId);
    for (String datasourceId : datasourceIds) {
      tenancy.bind(datasourceId, accountId);
    }
    store.onAccountEvent(
        AccountEvent.newBuilder()
            .setAccountId(accountId)
            .setType(AccountEventType.ACCOUNT_EVENT_TYPE_CREATED)
            .setIntakeDrive(drive(INTAKE_BUCKET, INTAKE_COPIES_PREFIX + accountId + "/"))
            .setPipelineDrive(drive(STORE_BUCKET, accountId + "/pipeline/"))
            .build());
    notifyIntake(accountId);
  }

  private void notifyIntake(String accountId) {
    if (notifiedAccounts.add(accountId)) {
      cloud.addS3Notification(new S3NotificationRule(INTAKE_BUCKET, accountId + "/", "", "intake"));
    }
  }

  static void requireAccountId(String accountId) {
    if (accountId == null
        || accountId.isBlank()
        || accountId.contains("/")
        || accountId.startsWith("_")) {
      throw new IllegalArgumentException(
          "accountId: must be non-blank, contain no '/' and not"
              + " start with '_' (the intake bucket keeps intake copies under "
              + INTAKE_COPIES_PREFIX
              + "), got '"
              + accountId
              + "'");
    }
  }

  /** Stores {@code graph} as a new version and activates it on Step Functions; returns the version. */
  public long applyAndActivate(PipelineGraph graph) {
    StoredGraph stored = admin.create(graph, OptionalLong.empty(), "protomolt");
    long version = stored.graph().getVersion();
    activation.activate(graph.getGraphId(), graph.getClusterId(), version);
    return version;
  }

  /** One admission of an uploaded document: which execution carries it through which graph. */
  public record Admission(
      String docId, String graphId, long graphVersion, String outcome, String executionArn) {}

  /** What intake admitted for {@code accountId} so far, oldest first. */
  public List<Admission> admissions(String accountId) {
    return new PostgresAdmissionLog(cloud.database())
        .forAccount(accountId).stream()
            .map(
                r ->
                    new Admission(
                        r.docId(),
                        r.graphId(),
                        r.graphVersion(),
                        r.outcome().name(),
                        r.executionArn()))
            .toList();
  }

  /** The local cloud's migrated database, for reading what the platform recorded. */
  DataSource database() {
    return cloud.database();
  }

  public LocalCloudEndpoints endpoints() {
    return cloud.endpoints();
  }

  /** The metrics the gateway emitted so far (CloudWatch's part, played by the local cloud). */
  public RecordingMetricsSink metrics() {
    return metrics;
  }

  public int gatewayPort() {
    return gateway.port();
  }

  /** The console's URL: it carries the token that authorizes this browser once. */
  public URI consoleUrl() {
    return console.url();
  }

  /** What the gateway did with work so far (served, settled, re-buffered, duplicates). */
  public GatewayCounters gatewayCounters() {
    return gateway.counters();
  }

  public Path indexDir() {
    return indexDir;
  }

  /** Searches what the sample sink has indexed so far. */
  public IndexSearch indexSearch() {
    return index.search();
  }

  public PipeDocStore store() {
    return store;
  }

  public SfnClient stepFunctions() {
    return sfn;
  }

  /** Every endpoint a user or a client needs, as {@code KEY=VALUE} lines' contents. */
  public Map<String, String> environment() {
    return LocalEnvironment.of(cloud.endpoints(), gateway.port());
  }

  /**
   * What a worker of sample module {@code moduleId} signs its gateway calls with: the module's
   * local principal, which may serve that module only.
   */
  public GatewayCallCredentials moduleCredentials(String moduleId) {
    return LocalPrincipals.module(moduleId, cloud.stsEndpoint(), cloud.endpoints().region());
  }

  /** What the CLI signs with: the local operator, allowed every account. */
  public GatewayCallCredentials operatorCredentials() {
    return LocalPrincipals.operator(cloud.stsEndpoint(), cloud.endpoints().region());
  }

  /** The sample modules' processors by module id, for tests and drivers that run own workers. */
  public Map<String, DocumentProcessor> sampleProcessors() {
    return Map.copyOf(processors);
  }

  /** Stops the platform's own sample workers; work they held goes back to the gateway. */
  public void stopSampleWorkers() {
    workers.forEach(ModuleWorker::close);
    workers.clear();
  }

  /** The replay state machine, created once per data folder and kept current after that. */
  private static void createReplayMachine(SfnClient sfn, String region, String definition) {
    try {
      sfn.createStateMachine(b -> b.name(REPLAY_MACHINE).definition(definition).roleArn(ROLE));
    } catch (StateMachineAlreadyExistsException exists) {
      sfn.updateStateMachine(
          b -> b.stateMachineArn(replayMachineArn(region)).definition(definition));
    }
  }

  /** The ARN of {@code protomolt-local-replay}, which {@code protomolt replay} starts. */
  static String replayMachineArn(String region) {
    return "arn:aws:states:"
        + region
        + ":"
        + LocalCloud.ACCOUNT_ID
        + ":stateMachine:"
        + REPLAY_MACHINE;
  }

  private static void register(LocalLambdaRunner lambdas, String name, EventHandler handler) {
    lambdas.register(name, (event, context) -> handler.handleText(event));
  }

  private void startWorker(String moduleId, DocumentProcessor processor) {
    processors.put(moduleId, processor);
    ModuleWorker worker =
        new ModuleWorker(
            ClientInterceptors.intercept(channel, moduleCredentials(moduleId).interceptor()),
            WorkerConfig.of(moduleId, 2),
            processor,
            WorkerClock.system());
    worker.start();
    workers.add(worker);
  }

  private static DriveBinding drive(String bucket, String prefix) {
    return DriveBinding.newBuilder()
        .setBucket(bucket)
        .setPrefix(prefix)
        .setRegion(LocalCloudSettings.DEFAULT_REGION)
        .setCredentialsRef(CREDENTIALS_REF)
        .setProvider(DriveProvider.DRIVE_PROVIDER_PROTOMOLT)
        .build();
  }

  /**
   * What the gateway's graph door needs: the drafts table the template's gateway task names, and
   * the role and hop functions this platform's own activation embeds, so a graph activated through
   * either runs on the functions registered above. Dropped once the template deploys the gateway.
   */
  private static Map<String, String> graphDoorValues(TemplatePlan plan, LocalLambdaRunner lambdas) {
    String drafts = PlatformVariable.DRAFTS_TABLE.key();
    Map<String, String> v = new LinkedHashMap<>();
    v.put(
        drafts,
        plan.containers().stream()
            .filter(c -> c.environment().containsKey(drafts))
            .map(c -> c.environment().get(drafts))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the local template's gateway task sets no " + drafts)));
    v.put(PlatformVariable.EXECUTION_ROLE_ARN.key(), ROLE);
    v.put(PlatformVariable.PREPARE_FUNCTION_ARN.key(), lambdas.functionArn("prepare"));
    v.put(PlatformVariable.DISPATCH_FUNCTION_ARN.key(), lambdas.functionArn("dispatch"));
    v.put(PlatformVariable.COMPLETE_FUNCTION_ARN.key(), lambdas.functionArn("complete"));
    v.put(PlatformVariable.DLQ_FUNCTION_ARN.key(), lambdas.functionArn("dlq"));
    return v;
  }

  /** The gateway's own configuration keys (gateway/README.md), pointed at the local cloud. */
  private static Map<String, String> gatewayValues(
      LocalCloudEndpoints ep, int port, Map<String, String> graphDoor, URI sts) {
    // GatewayMain's Step Functions client reads credentials from the default chain; the local
    // runtime accepts any key, but the SDK refuses to sign without one (decision 0953).
    if (System.getProperty("aws.accessKeyId") == null
        && System.getenv("AWS_ACCESS_KEY_ID") == null) {
      System.setProperty("aws.accessKeyId", ep.accessKeyId());
      System.setProperty("aws.secretAccessKey", ep.secretAccessKey());
    }
    Map<String, String> v = new LinkedHashMap<>();
    v.put("PROTOMOLT_GATEWAY_PORT", Integer.toString(port));
    v.put("PROTOMOLT_GATEWAY_MODULES", String.join(",", MODULES));
    v.put("PROTOMOLT_KAFKA_BOOTSTRAP", ep.kafkaBootstrapServers());
    ep.stepFunctions().ifPresent(uri -> v.put("PROTOMOLT_SFN_ENDPOINT", uri.toString()));
    v.put("AWS_REGION", ep.region());
    v.put("PROTOMOLT_JDBC_URL", ep.postgresJdbcUrl());
    v.put("PROTOMOLT_JDBC_USER", ep.postgresUser());
    v.put("PROTOMOLT_JDBC_PASSWORD", ep.postgresPassword());
    v.put("PROTOMOLT_S3_CREDENTIALS_REFS", CREDENTIALS_REF);
    v.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", ep.s3().toString());
    v.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
    v.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", ep.accessKeyId());
    v.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", ep.secretAccessKey());
    v.put(PlatformVariable.DYNAMODB_ENDPOINT.key(), ep.dynamoDb().toString());
    v.putAll(graphDoor);
    // Sealed logs' originals go to the store bucket under logs/, as the stack points the gateway
    // at its platform bucket (decision 1674).
    v.put("PROTOMOLT_LOG_BUCKET", STORE_BUCKET);
    // The diagnostics probes are on locally, as in dev (decision 1790); the admin port sits next
    // to the gRPC one, or on any free port when the gateway's is.
    v.put("PROTOMOLT_DIAGNOSTICS_ENABLED", "true");
    v.put("PROTOMOLT_ADMIN_PORT", Integer.toString(port == 0 ? 0 : port + 1));
    v.putAll(LocalPrincipals.gatewaySettings(sts, MODULES));
    return v;
  }

  @Override
  public void close() {
    console.close();
    consoleDrafts.close();
    workers.forEach(ModuleWorker::close);
    channel.shutdownNow();
    gateway.close();
    try {
      index.close();
    } catch (IOException e) {
      // The index commits on every document; closing only releases the write lock.
    }
    sfn.close();
    producer.close(Duration.ofSeconds(5));
    kafkaAdmin.close(Duration.ofSeconds(5));
    purgeEvents.close();
    s3.close();
    cloud.close();
  }
}
