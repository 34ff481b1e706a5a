package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.iam.enforce.IamEnforcement;
import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.localstack.kafka.MskPoller;
import dev.protomolt.localstack.kms.LocalKms;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.lambda.Pause;
import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import dev.protomolt.localstack.lb.LocalCertificates;
import dev.protomolt.localstack.otlp.LocalTraces;
import dev.protomolt.localstack.otlp.OtlpTraceReceiver;
import dev.protomolt.localstack.s3.BucketNotificationConfigurations;
import dev.protomolt.localstack.s3.S3NotificationRule;
import dev.protomolt.localstack.s3.S3Notifier;
import dev.protomolt.localstack.sts.LocalSts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.sql.DataSource;

/**
 * The whole local cloud in one JVM: S3, PostgreSQL, Kafka and DynamoDB on loopback ports with
 * their data under one folder, the Lambda runner, S3 notifications, MSK event-source mappings and
 * (when plugged in) the local Step Functions runtime. Starting again on the same folder finds the
 * same data; {@link #close()} (or JVM exit) stops every server and child process it started.
 */
public final class LocalCloud implements AutoCloseable {

  public static final String ACCOUNT_ID = "000000000000";

  static final String LAMBDA_API_COMPONENT = "Lambda API";

  /** Locally a failed event is retried after a second, not the minute AWS waits. */
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);

  private final LocalCloudSettings settings;
  private final LocalS3 s3;
  private final LocalPostgres postgres;
  private final LocalKafka kafka;
  private final LocalDynamoDb dynamoDb;
  private final LocalLambdaRunner lambdas;
  private final S3Notifier notifier;
  private final StepFunctionsRuntime stepFunctions;
  private final PrincipalRegistry iam;
  private final FunctionRegistry functions;
  private final LambdaApiServer lambdaApi;
  private final LocalKms kms;
  private final IamEnforcement.Installation iamEnforcement;
  private final List<MskPoller> pollers = new ArrayList<>();
  private final LocalCertificates certificates;

  /** Buckets created after start (a deployed template's); notifications may name them too. */
  private final java.util.Set<String> createdBuckets = ConcurrentHashMap.newKeySet();

  private final Map<String, Duration> startTimes;
  private final Thread shutdownHook;
  private boolean closed;

  private LocalCloud(
      LocalCloudSettings settings,
      Started started,
      LocalLambdaRunner lambdas,
      S3Notifier notifier,
      StepFunctionsRuntime stepFunctions,
      PrincipalRegistry iam,
      FunctionRegistry functions,
      LambdaApiServer lambdaApi,
      LocalKms kms) {
    this.settings = settings;
    this.kms = kms;
    this.s3 = started.s3;
    this.postgres = started.postgres;
    this.kafka = started.kafka;
    this.dynamoDb = started.dynamoDb;
    this.lambdas = lambdas;
    this.notifier = notifier;
    this.stepFunctions = stepFunctions;
    this.iam = iam;
    this.functions = functions;
    this.lambdaApi = lambdaApi;
    // Generated on first start and kept in the data folder, so a client's CA file stays valid.
    this.certificates = LocalCertificates.ensure(tlsDir(settings.dataDir()));
    this.iamEnforcement = IamEnforcement.install(iam);
    this.startTimes = Map.copyOf(started.startTimes);
    this.shutdownHook = new Thread(this::closeFromHook, "protomolt-local-cloud-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts everything, with the local Step Functions runtime. */
  public static LocalCloud start(LocalCloudSettings settings) {
    return start(settings, new LocalStepFunctionsLauncher());
  }

  /**
   * Starts the four servers in parallel, then the Step Functions runtime through
   * {@code stepFunctions} (null: no Step Functions at all), then the notification dispatcher.
   */
  public static LocalCloud start(LocalCloudSettings settings, StepFunctionsLauncher stepFunctions) {
    Path data = settings.dataDir().toAbsolutePath();
    claimFixedPorts(settings);
    LocalLambdaRunner lambdas = new LocalLambdaRunner(settings.region(), ACCOUNT_ID);
    PrincipalRegistry iam = new PrincipalRegistry(ACCOUNT_ID);
    S3Notifier notifier =
        new S3Notifier(
            data.resolve("s3-notifications"),
            lambdas,
            settings.region(),
            Clock.systemUTC(),
            Pause.SLEEP,
            FIRST_RETRY_DELAY);
    Started started = new Started();
    try (ExecutorService starters = Executors.newVirtualThreadPerTaskExecutor()) {
      CompletableFuture<Void> all =
          CompletableFuture.allOf(
              started.timed(
                  LocalPostgres.COMPONENT,
                  starters,
                  () ->
                      started.postgres =
                          LocalPostgres.start(
                              data.resolve("postgres/data"), settings.postgresPort())),
              started.timed(
                  LocalKafka.COMPONENT,
                  starters,
                  () ->
                      started.kafka =
                          LocalKafka.start(
                              data.resolve("kafka"),
                              settings.kafkaPort(),
                              settings.kafkaControllerPort(),
                              // As MSK Serverless: topics exist only once someone created them
                              // (the template's topics resource, activation's DLQ topics).
                              false)),
              started.timed(
                  LocalS3.COMPONENT,
                  starters,
                  () ->
                      started.s3 =
                          LocalS3.start(
                              data.resolve("s3"),
                              settings.s3Port(),
                              settings.accessKeyId(),
                              settings.secretAccessKey(),
                              settings.buckets(),
                              notifier,
                              iam::secretAccessKey,
                              // Rules account-events writes at run time (decision 1506).
                              new BucketNotificationConfigurations(
                                  data.resolve("s3-notification-configurations"),
                                  notifier,
                                  name -> lambdas.functionNames().contains(name)))),
              started.timed(
                  LocalDynamoDb.COMPONENT,
                  starters,
                  () ->
                      started.dynamoDb =
                          LocalDynamoDb.start(data.resolve("dynamodb"), settings.dynamoDbPort())));
      all.join();
    } catch (CompletionException e) {
      started.closeAll();
      notifier.close();
      throw asRuntime(e.getCause());
    }
    StepFunctionsRuntime sfn = null;
    if (stepFunctions != null) {
      long sfnStart = System.nanoTime();
      try {
        sfn =
            stepFunctions.start(
                new StepFunctionsEnvironment(
                    settings.stepFunctionsPort(),
                    data.resolve("stepfunctions"),
                    started.postgres.dataSource(),
                    started.postgres.jdbcUrl(),
                    lambdas,
                    settings.region(),
                    ACCOUNT_ID,
                    Clock.systemUTC()));
      } catch (Exception e) {
        started.closeAll();
        notifier.close();
        throw asRuntime(e);
      }
      started.startTimes.put(
          StepFunctionsEnvironment.COMPONENT, Duration.ofNanos(System.nanoTime() - sfnStart));
    }
    FunctionRegistry functions = new FunctionRegistry();
    LocalKms kms = new LocalKms(data, settings.region(), ACCOUNT_ID);
    LambdaApiServer lambdaApi;
    try {
      // STS's GetCallerIdentity answers on the same port: the gateway verifies callers there.
      lambdaApi =
          LambdaApiServer.start(
              settings.lambdaPort(),
              functions,
              new LocalSts(iam, Clock.systemUTC()),
              // The local collector: spans from every function, the gateway and the modules are
              // kept under the data folder for `protomolt trace` (decision 1794); a signed export
              // is checked against its role as X-Ray would check it (decision 1797).
              new OtlpTraceReceiver(LocalTraces.in(data), iam, Clock.systemUTC()),
              // The local KMS: the stack's data keys for right-to-be-forgotten documents
              // (decision 1751), its keys under the data folder.
              kms);
    } catch (IOException e) {
      if (sfn != null) {
        sfn.close();
      }
      started.closeAll();
      notifier.close();
      if (e.getCause() instanceof BindException bind) {
        throw new PortInUseException(
            LAMBDA_API_COMPONENT,
            settings.lambdaPort(),
            LocalCloudSettings.LAMBDA_PORT_SETTING,
            bind);
      }
      throw new UncheckedIOException("cannot start the " + LAMBDA_API_COMPONENT, e);
    }
    notifier.start();
    return new LocalCloud(
        settings, started, lambdas, notifier, sfn, iam, functions, lambdaApi, kms);
  }

  /**
   * A taken fixed port fails the start before any server or child process exists; each component
   * claims its port again when it starts, which also covers ports chosen as 0.
   */
  private static void claimFixedPorts(LocalCloudSettings settings) {
    record Claim(int port, String component, String setting) {}
    for (Claim claim :
        List.of(
            new Claim(settings.s3Port(), LocalS3.COMPONENT, LocalCloudSettings.S3_PORT_SETTING),
            new Claim(
                settings.postgresPort(),
                LocalPostgres.COMPONENT,
                LocalCloudSettings.POSTGRES_PORT_SETTING),
            new Claim(
                settings.kafkaPort(), LocalKafka.COMPONENT, LocalCloudSettings.KAFKA_PORT_SETTING),
            new Claim(
                settings.kafkaControllerPort(),
                LocalKafka.CONTROLLER_COMPONENT,
                LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING),
            new Claim(
                settings.dynamoDbPort(),
                LocalDynamoDb.COMPONENT,
                LocalCloudSettings.DYNAMODB_PORT_SETTING),
            new Claim(
                settings.stepFunctionsPort(),
                StepFunctionsEnvironment.COMPONENT,
                LocalCloudSettings.STEP_FUNCTIONS_PORT_SETTING),
            new Claim(
                settings.lambdaPort(),
                LAMBDA_API_COMPONENT,
                LocalCloudSettings.LAMBDA_PORT_SETTING))) {
      if (claim.port() != 0) {
        LoopbackPort.claim(claim.port(), claim.component(), claim.setting());
      }
    }
  }

  public LocalCloudEndpoints endpoints() {
    return new LocalCloudEndpoints(
        settings.dataDir().toAbsolutePath(),
        settings.region(),
        settings.accessKeyId(),
        settings.secretAccessKey(),
        s3.endpoint(),
        settings.buckets(),
        dynamoDb.endpoint(),
        kafka.bootstrapServers(),
        postgres.jdbcUrl(),
        LocalPostgres.USER,
        LocalPostgres.USER,
        Optional.ofNullable(stepFunctions).map(StepFunctionsRuntime::endpoint),
        Optional.of(lambdaApi.endpoint()));
  }

  /** Where the local cloud keeps its CA and load-balancer certificate under {@code dataDir}. */
  public static Path tlsDir(Path dataDir) {
    return dataDir.toAbsolutePath().resolve("tls");
  }

  /**
   * The CA and server certificate the local load balancer's TLS front presents (decision 1745);
   * {@link LocalCertificates#caFile()} is what clients trust ({@code PROTOMOLT_GATEWAY_CA}).
   */
  public LocalCertificates certificates() {
    return certificates;
  }

  /**
   * Where the local STS answers {@code GetCallerIdentity} (the local AWS API port it shares with
   * Lambda's API): {@code AWS_ENDPOINT_URL_STS} for clients and the gateway.
   */
  public java.net.URI stsEndpoint() {
    return lambdaApi.endpoint();
  }

  /**
   * The local KMS, answering on the local AWS API port ({@code AWS_ENDPOINT_URL_KMS}); the
   * template deployer creates the stack's keys in it.
   */
  public LocalKms kms() {
    return kms;
  }

  /** The spans the local collector has kept. */
  public LocalTraces traces() {
    return LocalTraces.in(settings.dataDir());
  }

  /** Register handlers here; Step Functions tasks, S3 rules and MSK mappings invoke them. */
  public LocalLambdaRunner lambdas() {
    return lambdas;
  }

  /**
   * The local IAM: register each function's (and the gateway task's) access key with its role's
   * policies, and every S3, Step Functions, DynamoDB and Lambda call an SDK client in this JVM signs
   * with that key is checked against them before it is sent. Calls signed with other keys pass.
   */
  public PrincipalRegistry iam() {
    return iam;
  }

  /**
   * What the local Lambda API lists and invokes: register each deployed function's configuration
   * and entry point here (the handler itself is registered with {@link #lambdas()}).
   */
  public FunctionRegistry lambdaApi() {
    return functions;
  }

  /** The migrated database, for code that runs in the same JVM. */
  public DataSource database() {
    return postgres.dataSource();
  }

  /**
   * Objects created from now on that {@code rule} matches invoke its function. As S3 validates a
   * notification's destination when it is configured, the function must already be registered.
   */
  public void addS3Notification(S3NotificationRule rule) {
    requireRegistered(rule.functionName(), "S3 notification on bucket " + rule.bucket());
    if (!settings.buckets().contains(rule.bucket()) && !createdBuckets.contains(rule.bucket())) {
      throw new IllegalArgumentException(
          "bucket: '"
              + rule.bucket()
              + "' is not one of the local"
              + " cloud's buckets "
              + settings.buckets());
    }
    notifier.addRule(rule);
  }

  /** Creates {@code bucket} when missing, as {@code CreateBucket} does for a deployed template. */
  public void createBucket(String bucket) {
    s3.createBucket(bucket);
    createdBuckets.add(bucket);
  }

  /**
   * Object creations journalled but not yet delivered to their functions; integration tests wait
   * for this to reach 0 after an upload instead of sleeping.
   */
  public int pendingS3Notifications() {
    return notifier.pendingCount();
  }

  /**
   * Starts polling the mapping's topics for its function, which must already be registered (as
   * CreateEventSourceMapping requires).
   */
  public synchronized MskPoller addMskEventSource(MskEventSourceMapping mapping) {
    requireRegistered(mapping.functionName(), "MSK event source on " + mapping.topics());
    MskPoller poller =
        new MskPoller(
            mapping,
            kafka.bootstrapServers(),
            settings.region(),
            lambdas,
            Pause.SLEEP,
            FIRST_RETRY_DELAY);
    pollers.add(poller);
    poller.start();
    return poller;
  }

  private void requireRegistered(String function, String what) {
    if (!lambdas.functionNames().contains(function)) {
      throw new IllegalArgumentException(
          "functionName: "
              + what
              + " names '"
              + function
              + "', which is not registered; register it with lambdas().register first (registered:"
              + " "
              + lambdas.functionNames()
              + ")");
    }
  }

  /** How long each component took to start (they start in parallel), for the benchmark. */
  public Map<String, Duration> startTimes() {
    return startTimes;
  }

  /** The child processes this cloud started (PostgreSQL's postmaster and dynalite's node). */
  public List<ProcessHandle> childProcesses() {
    List<ProcessHandle> children = new ArrayList<>();
    OptionalLong postmaster = postgres.postmasterPid();
    if (postmaster.isPresent()) {
      ProcessHandle.of(postmaster.getAsLong()).ifPresent(children::add);
    }
    children.add(dynamoDb.processHandle());
    return children;
  }

  /** Stops everything, dependants first; the first failure is thrown after all were tried. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // Called from the hook itself, or during JVM exit: nothing to remove.
    }
    Deque<AutoCloseable> order = new ArrayDeque<>();
    order.add(iamEnforcement);
    order.add(lambdaApi);
    pollers.forEach(order::add);
    order.add(notifier);
    if (stepFunctions != null) {
      order.add(stepFunctions);
    }
    order.add(kafka);
    order.add(dynamoDb);
    order.add(s3);
    order.add(postgres);
    closeInOrder(order);
  }

  private void closeFromHook() {
    close();
  }

  private static void closeInOrder(Deque<AutoCloseable> order) {
    RuntimeException first = null;
    for (AutoCloseable component : order) {
      try {
        component.close();
      } catch (Exception e) {
        if (first == null) {
          first = asRuntime(e);
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static RuntimeException asRuntime(Throwable e) {
    return e instanceof RuntimeException runtime
        ? runtime
        : new IllegalStateException(e.getMessage(), e);
  }

  /** What came up before a failure, so a failed start still stops every piece it started. */
  private static final class Started {
    volatile LocalPostgres postgres;
    volatile LocalKafka kafka;
    volatile LocalS3 s3;
    volatile LocalDynamoDb dynamoDb;
    final Map<String, Duration> startTimes = new ConcurrentHashMap<>();

    CompletableFuture<Void> timed(String component, ExecutorService executor, Runnable start) {
      return CompletableFuture.runAsync(
          () -> {
            long begin = System.nanoTime();
            start.run();
            startTimes.put(component, Duration.ofNanos(System.nanoTime() - begin));
          },
          executor);
    }

    void closeAll() {
      Deque<AutoCloseable> order = new ArrayDeque<>();
      for (AutoCloseable c : new AutoCloseable[] {kafka, dynamoDb, s3, postgres}) {
        if (c != null) {
          order.add(c);
        }
      }
      try {
        closeInOrder(order);
      } catch (RuntimeException suppressed) {
        // The start failure is the error worth reporting.
      }
    }
  }
}
