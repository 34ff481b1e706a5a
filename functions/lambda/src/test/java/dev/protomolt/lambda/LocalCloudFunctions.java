package dev.protomolt.lambda;

import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.lambda.wiring.ContainerClients;
import dev.protomolt.lambda.wiring.FunctionEnvironment;
import dev.protomolt.lambda.wiring.FunctionWiring;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.statemachines.ReplayMachine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The local cloud with this module's handlers registered as its Lambda functions, each built by
 * the production wiring ({@link FunctionWiring}) from the {@code PROTOMOLT_*} variables a deployed
 * function would get, pointed at the local endpoints.
 */
final class LocalCloudFunctions implements AutoCloseable {

  static final String ENV = "local";
  static final String ROLE = "arn:aws:iam::" + LocalCloud.ACCOUNT_ID + ":role/protomolt-local";
  static final String DRAFTS_TABLE = "protomolt-local-drafts";
  static final String DATA_KEY_ID = "6d1f0a52-3b7c-4e1d-9a55-2c8e7f4b0d19";
  static final String REPLAY_MACHINE = "protomolt-" + ENV + "-replay";

  final LocalCloud cloud;
  final Map<String, String> environment;
  final ContainerClients clients;
  final FunctionWiring wiring;

  /**
   * The intake rules account provisioning asked for, as {@code bucket:account}. The local S3 has
   * no bucket notification API (decision 0400), and a real local rule would make the notifier
   * admit the tests' uploads behind their backs, so the rules are recorded here instead.
   */
  final List<String> intakeRules = new CopyOnWriteArrayList<>();

  /** What the functions emitted, as CloudWatch would receive it from their EMF lines. */
  final RecordingMetricsSink metrics = new RecordingMetricsSink(ENV);

  LocalCloudFunctions(Path dataDir, TenancyDirectory tenancy) {
    this.cloud = LocalCloud.start(LocalCloudSettings.ephemeral(dataDir));
    LocalCloudEndpoints ep = cloud.endpoints();
    // The Step Functions client reads the default credentials chain, as it does in AWS; the local
    // runtime accepts any key but the SDK refuses to sign without one.
    System.setProperty("aws.accessKeyId", ep.accessKeyId());
    System.setProperty("aws.secretAccessKey", ep.secretAccessKey());
    this.environment = environment(ep, cloud);
    createTopics(ep);
    this.clients = new ContainerClients(new FunctionEnvironment(environment), Clock.systemUTC());
    this.wiring =
        new FunctionWiring(
            clients,
            tenancy,
            (drive, account) -> intakeRules.add(drive.bucket() + ":" + account),
            metrics);
    for (String name : NamedHandlers.NAMES) {
      EventHandler handler = wiring.handler(name);
      cloud.lambdas().register(name, (event, context) -> handler.handleText(event));
    }
    // What the stack declares beside the functions: the drafts table and the replay machine.
    DynamoDbDraftStore.createTable(clients.dynamo(), DRAFTS_TABLE);
    clients
        .sfn()
        .createStateMachine(
            b ->
                b.name(REPLAY_MACHINE)
                    .roleArn(ROLE)
                    .definition(
                        ReplayMachine.definition(
                            cloud.lambdas().functionArn("replay-validate"),
                            cloud.lambdas().functionArn("replay-page"))));
  }

  /**
   * The platform's topics and the fixture module's, as the stack's Kafka topics resource creates
   * them: the local broker, like MSK Serverless, creates none on first write.
   */
  private static void createTopics(LocalCloudEndpoints ep) {
    List<NewTopic> topics = new ArrayList<>();
    for (PlatformTopic t : PlatformTopic.values()) {
      topics.add(new NewTopic(t.topicName(), 1, (short) 1));
    }
    topics.add(new NewTopic(PlatformTopic.MODULE_TOPIC_PREFIX + "echo", 1, (short) 1));
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ep.kafkaBootstrapServers()))) {
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create the fixture's topics: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted creating the fixture's topics", e);
    }
  }

  /** What the stack sets on a function (decision 0654), with the local endpoints. */
  static Map<String, String> environment(LocalCloudEndpoints ep, LocalCloud cloud) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PROTOMOLT_ENV", ENV);
    env.put("AWS_REGION", ep.region());
    env.put("PROTOMOLT_KAFKA_BOOTSTRAP", ep.kafkaBootstrapServers());
    env.put("PROTOMOLT_JDBC_URL", ep.postgresJdbcUrl());
    env.put("PROTOMOLT_JDBC_USER", ep.postgresUser());
    env.put("PROTOMOLT_JDBC_PASSWORD", ep.postgresPassword());
    env.put("PROTOMOLT_SFN_ENDPOINT", ep.stepFunctions().orElseThrow().toString());
    env.put("PROTOMOLT_S3_CREDENTIALS_REFS", "platform");
    env.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", ep.s3().toString());
    env.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
    env.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", ep.accessKeyId());
    env.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", ep.secretAccessKey());
    env.put("PROTOMOLT_EXECUTION_ROLE_ARN", ROLE);
    // The local collector, as TemplateDeployer.runtimeEnvironment gives every deployed function.
    ep.traces().ifPresent(uri -> env.put(PlatformVariable.OTLP_ENDPOINT.key(), uri.toString()));
    // And X-Ray's trace reads, which the collector answers for console-api (decision 1830).
    ep.traces().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_XRAY", uri.toString()));
    env.put("AWS_ENDPOINT_URL_DYNAMODB", ep.dynamoDb().toString());
    env.put("PROTOMOLT_DRAFTS_TABLE", DRAFTS_TABLE);
    // The console's operators: two platform operators, and one operator of beta alone.
    env.put(
        PlatformVariable.CONSOLE_OPERATOR_PRINCIPALS.key(),
        ConsoleApiOnLocalCloudTest.OPERATOR
            + "=*;"
            + ConsoleApiOnLocalCloudTest.ANOTHER_OPERATOR
            + "=*;"
            + ConsoleApiOnLocalCloudTest.BETA_OPERATOR_ROLE
            + "=beta");
    // The stack's data key for right-to-be-forgotten bodies, in the local KMS (decision 1751).
    cloud.kms().ensureKey(DATA_KEY_ID);
    env.put(PlatformVariable.DATA_KEY_ARN.key(), cloud.kms().arn(DATA_KEY_ID));
    ep.lambda().ifPresent(uri -> env.put(PlatformVariable.KMS_ENDPOINT.key(), uri.toString()));
    env.put(
        "PROTOMOLT_REPLAY_STATE_MACHINE_ARN",
        "arn:aws:states:"
            + ep.region()
            + ":"
            + LocalCloud.ACCOUNT_ID
            + ":stateMachine:"
            + REPLAY_MACHINE);
    for (String hop : new String[] {"prepare", "dispatch", "complete", "dlq"}) {
      env.put("PROTOMOLT_" + hop.toUpperCase() + "_FUNCTION_ARN", cloud.lambdas().functionArn(hop));
    }
    return env;
  }

  /**
   * The datasources the fixtures upload to, owned by the fixtures' account: {@code acme-uploads},
   * and {@code acme-forgettable}, whose every upload is right-to-be-forgotten.
   */
  static TenancyDirectory fixtureTenancy() {
    return datasource ->
        datasource.equals("acme-uploads") || datasource.equals("acme-forgettable")
            ? Optional.of("acme")
            : Optional.empty();
  }

  @Override
  public void close() {
    clients.close();
    cloud.close();
  }
}
