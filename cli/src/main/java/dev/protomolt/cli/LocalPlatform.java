package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.gateway.GatewayCounters;
import dev.protomolt.gateway.GatewayMain;
import dev.protomolt.gateway.KafkaPurgeEvents;
import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.localstack.apigw.HttpApiFront;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.template.CloudFormationTemplate;
import dev.protomolt.localstack.template.DeployedStack;
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
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.engine.v1.DeclareIndexPlansRequest;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DriveBinding;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import dev.protomolt.tracing.Tracing;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The platform on one machine, as {@code cdk deploy} makes it: the local cloud, the synthesized
 * {@code local} template deployed onto it (every function from the zip's {@code FunctionWiring}
 * with the template's environment, the gateway's ECS task from {@code GatewayMain} with the task
 * definition's, triggers, tables, topics, state machines; decision 1500), and the four sample
 * modules as gRPC clients of the gateway. This class builds no platform service: what it does
 * besides starting things is what an operator or a user does from outside (publish an account
 * event, invoke graph admin, upload), and the readers tests and drivers observe the result with.
 */
public final class LocalPlatform implements AutoCloseable {

  public static final String CLUSTER = "local";

  private static final String GATEWAY_HOST = "127.0.0.1";

  /** The stack's intake bucket ({@code protomolt-<env>-<account>-intake}, output IntakeBucket). */
  public static final String INTAKE_BUCKET =
      LocalTemplate.STACK_NAME + "-" + LocalCloud.ACCOUNT_ID + "-intake";

  /** The stack's platform bucket (output PlatformBucket): local accounts' pipeline drives. */
  public static final String STORE_BUCKET =
      LocalTemplate.STACK_NAME + "-" + LocalCloud.ACCOUNT_ID + "-platform";

  /**
   * Where the store writes intake copies inside the intake bucket: outside every account's upload
   * prefix, so the store's own objects never notify intake (decision 0951).
   */
  public static final String INTAKE_COPIES_PREFIX = "_intake-copies/";

  /** The credentials reference every locally provisioned drive names: the caller's own role. */
  static final String CREDENTIALS_REF = "platform";

  /** The replay state machine's name, as the stack names it for the local environment. */
  static final String REPLAY_MACHINE = LocalTemplate.STACK_NAME + "-replay";

  /** The graph admin function, which {@link #applyAndActivate} invokes as an operator would. */
  static final String GRAPH_ADMIN = LocalTemplate.STACK_NAME + "-graph-admin";

  /** The dead-letter door, which {@code protomolt dlq} invokes through the Lambda API. */
  static final String DLQ_ADMIN = LocalTemplate.STACK_NAME + "-dlq-admin";

  /** The console's API function, which the local HTTP front serves (decision 1770). */
  static final String CONSOLE_API = LocalTemplate.STACK_NAME + "-console-api";

  static final List<String> MODULES =
      List.of(
          ParserModule.MODULE_ID,
          ChunkerModule.MODULE_ID,
          EmbedderModule.MODULE_ID,
          IndexSinkModule.MODULE_ID);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PROVISIONING_WAIT = Duration.ofSeconds(60);

  private final LocalCloud cloud;
  // The local cloud stands in for CloudWatch: what the functions and the gateway emit is kept
  // here, readable by tests and drivers, instead of printed among the command's own output.
  private final RecordingMetricsSink metrics = new RecordingMetricsSink(CLUSTER);
  private final DeployedStack stack;
  private final GatewayMain gateway;
  private final DeployedStack.TlsListener front;
  private final HttpApiFront console;
  // An operator's tools: the producer account events are published with, and the clients and
  // readers tests and drivers look at the platform through. None of them serves the platform.
  private final KafkaProducer<String, byte[]> operatorEvents;
  private final SfnClient sfn;
  private final S3Client s3;
  private final S3Clients storeClients;
  private final KafkaPurgeEvents storePurgeEvents;
  private final PipeDocStore store;
  private final LuceneIndex index;
  private final Path indexDir;
  private final ManagedChannel channel;
  private final List<ModuleWorker> workers = new ArrayList<>();
  private final List<Tracing> moduleTracing = new ArrayList<>();
  private final Map<String, DocumentProcessor> processors = new LinkedHashMap<>();

  private LocalPlatform(
      LocalCloud cloud, CloudFormationTemplate template, int gatewayPort, int consolePort)
      throws IOException {
    this.cloud = cloud;
    LocalCloudEndpoints ep = cloud.endpoints();
    Clock clock = Clock.systemUTC();
    // The gateway's callers: one principal per sample module and the CLI's operator, verified by
    // the local STS as AWS's STS verifies task roles (decision 1742); the template's task names
    // the same roles in its principal settings.
    LocalPrincipals.register(cloud.iam(), MODULES);
    ZipFunctionRuntime functions = new ZipFunctionRuntime(metrics);
    // The task listens on a free loopback port, as a task inside the VPC has its own address; the
    // port callers are given is the load balancer's TLS listener (decision 1745).
    GatewayTaskRuntime task = new GatewayTaskRuntime(OptionalInt.of(0), metrics);
    TemplatePlan plan =
        TemplateDeployer.plan(template, LocalTemplate.STACK_NAME, cloud, functions, task);
    requireOutput(plan, "IntakeBucket", INTAKE_BUCKET);
    requireOutput(plan, "PlatformBucket", STORE_BUCKET);
    this.stack = TemplateDeployer.deploy(plan, cloud, functions, task, gatewayPort);
    this.gateway =
        task.gateway()
            .orElseThrow(
                () -> new IllegalStateException("the template's gateway task did not start"));
    this.front =
        stack
            .tlsListener()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the local template has no TLS listener in front of the gateway"));
    this.console =
        HttpApiFront.start(
            consolePort,
            cloud.lambdas(),
            CONSOLE_API,
            HttpApiFront.Assets.classpath(
                LocalPlatform.class.getClassLoader(), "protomolt-console"),
            // The console's caller is the local operator role, which the local stack's
            // operator grants allow every account (decision 1752).
            new HttpApiFront.Operator(LocalCloud.ACCOUNT_ID, LocalPrincipals.OPERATOR_ROLE));

    StaticCredentialsProvider root =
        StaticCredentialsProvider.create(
            AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey()));
    this.operatorEvents =
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
            .credentialsProvider(root)
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    this.s3 =
        S3Client.builder()
            .endpointOverride(ep.s3())
            .forcePathStyle(true)
            .region(Region.of(ep.region()))
            .credentialsProvider(root)
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    // Tests and drivers read (and seed) stored documents directly, as an operator with the
    // account's credentials could; the platform's own store lives in its functions and task.
    DataSource ds = cloud.database();
    this.storeClients =
        new S3Clients(
            Map.of(
                CREDENTIALS_REF,
                ObjectStoreSettings.staticKeys(ep.s3(), ep.accessKeyId(), ep.secretAccessKey())),
            List.of());
    this.storePurgeEvents = new KafkaPurgeEvents(ep.kafkaBootstrapServers());
    this.store =
        new PipeDocStore(
            new PostgresLedgerStore(ds),
            new S3BlobStore(storeClients),
            new PostgresDriveDirectory(ds),
            new CachedAccountStatus(new PostgresAccountStatus(ds)),
            storePurgeEvents,
            clock);

    this.indexDir = ep.dataDir().resolve("index");
    this.index = LuceneIndex.open(indexDir);
    // The sample modules are clients like any other: they reach the gateway through its TLS
    // front, trusting the generated CA, never the task's plaintext port.
    this.channel = gatewayChannel().build();
    // The sample sink declares its index plan through the gateway as a standalone one does when
    // it starts (IndexSinkModule), so PRODUCTION graphs may name it.
    IndexPlanServiceGrpc.newBlockingStub(
            ClientInterceptors.intercept(
                channel, moduleCredentials(IndexSinkModule.MODULE_ID).interceptor()))
        .withDeadlineAfter(30, TimeUnit.SECONDS)
        .declareIndexPlans(
            DeclareIndexPlansRequest.newBuilder().addPlans(IndexSinkModule.PLAN).build());
    startWorker(ParserModule.MODULE_ID, new DocumentParser(clock));
    startWorker(ChunkerModule.MODULE_ID, new DocumentChunker());
    startWorker(EmbedderModule.MODULE_ID, new DocumentEmbedder());
    // Receipts go with the sink's acks, which the gateway produces to indexing-receipts; the
    // file is for a person to read.
    JsonLinesReceiptSink receiptFile = new JsonLinesReceiptSink(indexDir.resolve("receipts.jsonl"));
    startWorker(
        IndexSinkModule.MODULE_ID,
        new DocumentIndexSink(
            index,
            receiptFile,
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
    return start(settings, LocalTemplate.template(), gatewayPort, consolePort);
  }

  /**
   * Starts the local cloud and deploys {@code template} instead of the synthesized one: a test's
   * edited copy (a policy statement removed, say) runs exactly as the real one would.
   */
  static LocalPlatform start(
      LocalCloudSettings settings,
      CloudFormationTemplate template,
      int gatewayPort,
      int consolePort) {
    LocalCloud cloud = LocalCloud.start(settings);
    try {
      return new LocalPlatform(cloud, template, gatewayPort, consolePort);
    } catch (IOException | RuntimeException e) {
      cloud.close();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("the local platform did not start: " + io.getMessage(), io);
      }
      throw (RuntimeException) e;
    }
  }

  private static void requireOutput(TemplatePlan plan, String output, String expected) {
    String actual = plan.output(output);
    if (!expected.equals(actual)) {
      throw new IllegalStateException(
          "the local template's output "
              + output
              + " is '"
              + actual
              + "' but the CLI and `protomolt env` name '"
              + expected
              + "': change LocalPlatform's constant with the stack");
    }
  }

  /**
   * Creates the account as an operator does in AWS: publishes its {@code CREATED} event (intake
   * copies: {@code <intake bucket>/_intake-copies/<account>/}, pipeline: {@code <platform
   * bucket>/<account>/pipeline/}, the datasources it owns) to {@code account-events}, and waits
   * until the deployed account-events function has bound the datasources and added the account's
   * intake notification rule. Provisioning again is harmless.
   */
  public void provisionAccount(String accountId, String... datasourceIds) {
    provisionAccount(accountId, List.of(datasourceIds), Set.of());
  }

  /**
   * As {@link #provisionAccount(String, String...)}, declaring every upload of the {@code
   * forgettable} datasources (each one of {@code datasourceIds}) right-to-be-forgotten, whatever
   * its metadata says (decision 1512), and waiting until the function has recorded that too.
   */
  public void provisionAccount(
      String accountId, List<String> datasourceIds, Set<String> forgettable) {
    requireAccountId(accountId);
    for (String d : forgettable) {
      if (!datasourceIds.contains(d)) {
        throw new IllegalArgumentException(
            "forgettable: '"
                + d
                + "' must be one of the account's datasources "
                + datasourceIds
                + "; only a datasource the event binds can be declared forgettable");
      }
    }
    // Refused here, as an operator's tool would refuse it, rather than published: the deployed
    // function refuses such an event too, but a refused record holds up its partition until
    // Lambda's retries give up, delaying every account event behind it.
    PostgresDatasourceBindings bindings = new PostgresDatasourceBindings(cloud.database());
    for (String datasourceId : datasourceIds) {
      bindings
          .datasourceAccount(datasourceId)
          .filter(owner -> !owner.equals(accountId))
          .ifPresent(
              owner -> {
                throw new IllegalArgumentException(
                    "datasourceId: '"
                        + datasourceId
                        + "' already belongs to account '"
                        + owner
                        + "', not '"
                        + accountId
                        + "'; a datasource has one owning account");
              });
    }
    AccountEvent event =
        AccountEvent.newBuilder()
            .setAccountId(accountId)
            .setType(AccountEventType.ACCOUNT_EVENT_TYPE_CREATED)
            .setIntakeDrive(drive(INTAKE_BUCKET, INTAKE_COPIES_PREFIX + accountId + "/"))
            .setPipelineDrive(drive(STORE_BUCKET, accountId + "/pipeline/"))
            .addAllDatasourceIds(datasourceIds)
            .addAllForgettableDatasourceIds(forgettable)
            .build();
    try {
      operatorEvents
          .send(
              new ProducerRecord<>(
                  PlatformTopic.ACCOUNT_EVENTS.topicName(), accountId, event.toByteArray()))
          .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while publishing the account event", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "account '" + accountId + "': the account event was not published: " + e, e);
    }
    awaitProvisioned(accountId, datasourceIds, forgettable);
  }

  private void awaitProvisioned(
      String accountId, List<String> datasourceIds, Set<String> forgettable) {
    PostgresDatasourceBindings bindings = new PostgresDatasourceBindings(cloud.database());
    String rule = "protomolt-intake-" + accountId;
    Instant deadline = Instant.now().plus(PROVISIONING_WAIT);
    while (true) {
      boolean bound =
          datasourceIds.stream()
                  .allMatch(
                      d -> bindings.datasourceAccount(d).filter(accountId::equals).isPresent())
              && forgettable.stream().allMatch(bindings::forgettable);
      boolean notified =
          s3
              .getBucketNotificationConfiguration(b -> b.bucket(INTAKE_BUCKET))
              .lambdaFunctionConfigurations()
              .stream()
              .anyMatch(c -> rule.equals(c.id()));
      if (bound && notified) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "account '"
                + accountId
                + "': the account-events function did not "
                + (bound ? "" : "bind " + datasourceIds + (notified ? "" : " or "))
                + (notified ? "" : "add the intake rule " + rule)
                + " within "
                + PROVISIONING_WAIT.toSeconds()
                + " s; its failures are in the local cloud's log");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while provisioning " + accountId, e);
      }
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

  /**
   * Stores {@code graph} as a new version and activates it, through the deployed graph-admin
   * function as {@code aws lambda invoke} would; returns the version.
   */
  public long applyAndActivate(PipelineGraph graph) {
    ObjectNode create = JSON.createObjectNode();
    create.put("operation", "create");
    create.put("createdBy", "protomolt");
    try {
      create.set("graph", JSON.readTree(JsonFormat.printer().print(graph)));
    } catch (InvalidProtocolBufferException
        | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("graph: cannot be written as JSON: " + e.getMessage(), e);
    }
    long version = graphAdmin(create).path("version").asLong();
    ObjectNode activate = JSON.createObjectNode();
    activate.put("operation", "activate");
    activate.put("graphId", graph.getGraphId());
    activate.put("clusterId", graph.getClusterId());
    activate.put("version", version);
    graphAdmin(activate);
    return version;
  }

  private JsonNode graphAdmin(ObjectNode request) {
    LambdaResult result = stack.invoke(GRAPH_ADMIN, request.toString());
    if (result instanceof LambdaResult.Failure f) {
      throw new IllegalArgumentException(
          GRAPH_ADMIN + " refused " + request.path("operation").asText() + ": " + f.errorMessage());
    }
    try {
      return JSON.readTree(((LambdaResult.Success) result).payload());
    } catch (IOException e) {
      throw new UncheckedIOException(GRAPH_ADMIN + " answered no JSON", e);
    }
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

  /** The deployed template: its functions, schedules (triggerable on demand) and plan. */
  public DeployedStack stack() {
    return stack;
  }

  /** The metrics the functions and the gateway emitted so far (CloudWatch's part). */
  public RecordingMetricsSink metrics() {
    return metrics;
  }

  /** The port of the gateway's TLS front, where every client dials (decision 1745). */
  public int gatewayPort() {
    return front.port();
  }

  /** The PEM CA the gateway's TLS front is trusted by ({@code PROTOMOLT_GATEWAY_CA}). */
  public Path gatewayCa() {
    return front.caFile();
  }

  /**
   * The gateway task's own plaintext port, which only the TLS front dials: what a caller inside
   * the VPC would reach without the load balancer.
   */
  int gatewayTaskPort() {
    return gateway.port();
  }

  /**
   * A channel builder to the gateway's TLS front trusting only the local CA, as {@code
   * GatewayTransport.forGateway} builds it for a client given {@code PROTOMOLT_GATEWAY_CA}; the
   * caller adds its credentials.
   */
  public ManagedChannelBuilder<?> gatewayChannel() {
    return Grpc.newChannelBuilderForAddress(
        GATEWAY_HOST,
        front.port(),
        GatewayTransport.forGateway(GATEWAY_HOST, front.caFile(), GatewayTransport.CA_VARIABLE));
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

  /** A store over the platform's ledger and buckets, for tests and drivers to read and seed. */
  public PipeDocStore store() {
    return store;
  }

  public SfnClient stepFunctions() {
    return sfn;
  }

  /** Every endpoint a user or a client needs, as {@code KEY=VALUE} lines' contents. */
  public Map<String, String> environment() {
    return LocalEnvironment.of(cloud.endpoints(), front.port(), Optional.of(front.caFile()));
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

  /** Starts the sample workers again after {@link #stopSampleWorkers}: the modules coming back. */
  public void startSampleWorkers() {
    if (workers.isEmpty()) {
      Map.copyOf(processors).forEach(this::startWorker);
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

  private void startWorker(String moduleId, DocumentProcessor processor) {
    processors.put(moduleId, processor);
    // A module outside the stack traces to the collector its environment names, as ModuleRunner
    // does; the sample modules are given the local collector's (decision 1794).
    Tracing tracing =
        Tracing.toCollector(cloud.endpoints().traces().map(URI::toString).orElse(null), moduleId);
    moduleTracing.add(tracing);
    ModuleWorker worker =
        new ModuleWorker(
            ClientInterceptors.intercept(channel, moduleCredentials(moduleId).interceptor()),
            WorkerConfig.of(moduleId, 2),
            processor,
            WorkerClock.system(),
            tracing.tracer());
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

  @Override
  public void close() {
    console.close();
    workers.forEach(ModuleWorker::close);
    moduleTracing.forEach(Tracing::close);
    channel.shutdownNow();
    try {
      index.close();
    } catch (IOException e) {
      // The index commits on every document; closing only releases the write lock.
    }
    stack.close();
    sfn.close();
    s3.close();
    operatorEvents.close(Duration.ofSeconds(5));
    storePurgeEvents.close();
    storeClients.close();
    cloud.close();
  }
}
