package dev.protomolt.lambda.wiring;

import com.zaxxer.hikari.HikariDataSource;
import dev.protomolt.access.AwsClientSettings;
import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.LedgerPool;
import dev.protomolt.access.MskBootstrap;
import dev.protomolt.core.rtbf.DataKeys;
import dev.protomolt.engine.hop.KafkaEventBus;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.rtbf.KmsDataKeys;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import dev.protomolt.tracing.Tracing;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.Producer;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.xray.XRayClient;

/**
 * The clients of one Lambda container, each built from {@link FunctionEnvironment} on first use
 * and reused by every later invocation. Endpoints and keys come from the function's own map (the
 * SDK's {@code AWS_ENDPOINT_URL_*} and {@code AWS_ACCESS_KEY_ID} names), never from the JVM's. A function that never touches Step Functions never builds
 * a Step Functions client, and never needs its settings.
 */
public final class ContainerClients implements AutoCloseable {

  /** Every produce waits at most this long for the brokers' acknowledgement. */
  static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

  /** The topic tombstones are announced on (the purge function consumes it). */
  static final String STORAGE_PURGE = PlatformTopic.STORAGE_PURGE.topicName();

  private final FunctionEnvironment env;
  private final Clock clock;
  private final Once<HikariDataSource> dataSource;
  private final Once<S3Clients> s3;
  private final Once<BrokerAccess> brokers;
  private final Once<String> bootstrap;
  private final Once<Producer<String, byte[]>> producer;
  private final Once<KafkaEventBus> events;
  private final Once<SfnClient> sfn;
  private final Once<DynamoDbClient> dynamo;
  private final Once<XRayClient> xray;
  private final Once<DataKeys> dataKeys;
  private final Once<Admin> kafkaAdmin;
  private final Once<PipeDocStore> store;
  private final Once<Tracing> tracing;
  private KmsClient kms;

  public ContainerClients(FunctionEnvironment env, Clock clock) {
    this.env = Objects.requireNonNull(env, "env");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.dataSource = new Once<>(this::pool);
    this.s3 = new Once<>(() -> new S3Clients(env.objectStores(), List.of()));
    this.brokers = new Once<>(env::brokers);
    this.bootstrap =
        new Once<>(
            () ->
                MskBootstrap.servers(
                    brokers.get(),
                    new MskBootstrap(
                        UrlConnectionHttpClient.create(),
                        env.aws().credentials(),
                        env.region(),
                        env.aws()
                            .endpoint(AwsClientSettings.KAFKA)
                            .orElse(MskBootstrap.awsEndpoint(env.region())))));
    this.producer =
        new Once<>(
            () ->
                KafkaEventBus.durableProducer(
                    bootstrap.get(), KAFKA_TIMEOUT, brokers.get().connection()));
    this.events = new Once<>(() -> new KafkaEventBus(producer.get(), KAFKA_TIMEOUT));
    this.sfn = new Once<>(this::stepFunctions);
    this.dynamo = new Once<>(this::dynamoDb);
    this.xray = new Once<>(this::xrayClient);
    this.dataKeys = new Once<>(this::kmsDataKeys);
    this.kafkaAdmin =
        new Once<>(
            () -> {
              Map<String, Object> config = new HashMap<>(brokers.get().connection());
              config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.get());
              return Admin.create(config);
            });
    this.tracing = new Once<>(env::tracing);
    this.store =
        new Once<>(
            () -> {
              DataSource ds = dataSource();
              return new PipeDocStore(
                  new PostgresLedgerStore(ds),
                  new S3BlobStore(s3.get()),
                  new PostgresDriveDirectory(ds),
                  new CachedAccountStatus(new PostgresAccountStatus(ds)),
                  // The engine's durable producer announces tombstones too: one producer per
                  // container.
                  event -> events().publish(STORAGE_PURGE, event.getNodeId(), event.toByteArray()),
                  clock,
                  tracing().tracer());
            });
  }

  /** This container's tracer, off unless {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set. */
  public Tracing tracing() {
    return tracing.get();
  }

  public FunctionEnvironment environment() {
    return env;
  }

  public Clock clock() {
    return clock;
  }

  public DataSource dataSource() {
    return dataSource.get();
  }

  public S3Clients s3() {
    return s3.get();
  }

  public Producer<String, byte[]> producer() {
    return producer.get();
  }

  public KafkaEventBus events() {
    return events.get();
  }

  public SfnClient sfn() {
    return sfn.get();
  }

  /** DynamoDB (the console's drafts table), at the SDK's own endpoint variable if set. */
  public DynamoDbClient dynamo() {
    return dynamo.get();
  }

  /** X-Ray (the console's trace reads), at the SDK's own endpoint variable if set. */
  public XRayClient xray() {
    return xray.get();
  }

  /**
   * The data keys of right-to-be-forgotten documents: KMS under {@code PROTOMOLT_DATA_KEY_ARN},
   * wrapped keys in the ledger (decision 1750); without the variable every use is refused.
   */
  public DataKeys dataKeys() {
    // Built on first use: only a right-to-be-forgotten body needs KMS and the key ledger.
    return new DataKeys() {
      @Override
      public byte[] create(String keyId) {
        return dataKeys.get().create(keyId);
      }

      @Override
      public byte[] open(String keyId) {
        return dataKeys.get().open(keyId);
      }

      @Override
      public void destroy(String keyId) {
        dataKeys.get().destroy(keyId);
      }
    };
  }

  /** Bootstrap servers and the brokers' client settings, for a consumer a function builds itself. */
  public Map<String, Object> kafkaConnection() {
    Map<String, Object> config = new HashMap<>(brokers.get().connection());
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.get());
    return config;
  }

  public Admin kafkaAdmin() {
    return kafkaAdmin.get();
  }

  /** The document store over the ledger, S3 and the drive directory. */
  public PipeDocStore store() {
    return store.get();
  }

  /** Which clients this container has built so far, by name, for tests and logs. */
  public List<String> built() {
    List<String> names = new ArrayList<>();
    if (dataSource.built() != null) {
      names.add("jdbc");
    }
    if (s3.built() != null) {
      names.add("s3");
    }
    if (producer.built() != null) {
      names.add("kafka-producer");
    }
    if (sfn.built() != null) {
      names.add("sfn");
    }
    if (kafkaAdmin.built() != null) {
      names.add("kafka-admin");
    }
    if (dynamo.built() != null) {
      names.add("dynamodb");
    }
    if (kms != null) {
      names.add("kms");
    }
    return names;
  }

  private HikariDataSource pool() {
    // A container runs one invocation at a time; two connections cover a service that reads on
    // one while a nested call writes on another, without holding proxy slots nobody uses.
    return LedgerPool.open(env.database(), env.aws().credentials(), "protomolt-lambda", 2);
  }

  private SfnClient stepFunctions() {
    var builder =
        SfnClient.builder()
            .region(Region.of(env.region()))
            .credentialsProvider(env.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    env.stepFunctionsEndpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  private DataKeys kmsDataKeys() {
    Optional<String> keyArn = env.dataKeyArn();
    if (keyArn.isEmpty()) {
      return DataKeys.unconfigured(
          PlatformVariable.DATA_KEY_ARN.key()
              + " is not set, so this function has no data keys to seal or open a"
              + " right-to-be-forgotten body with");
    }
    var builder =
        KmsClient.builder()
            .region(Region.of(env.region()))
            .credentialsProvider(env.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    env.aws().endpoint(AwsClientSettings.KMS).ifPresent(builder::endpointOverride);
    kms = builder.build();
    return new KmsDataKeys(kms, keyArn.get(), dataSource());
  }

  private DynamoDbClient dynamoDb() {
    var builder =
        DynamoDbClient.builder()
            .region(Region.of(env.region()))
            .credentialsProvider(env.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    env.aws().endpoint(AwsClientSettings.DYNAMODB).ifPresent(builder::endpointOverride);
    return builder.build();
  }

  private XRayClient xrayClient() {
    var builder =
        XRayClient.builder()
            .region(Region.of(env.region()))
            .credentialsProvider(env.aws().credentials())
            .httpClient(UrlConnectionHttpClient.create());
    env.aws().endpoint(AwsClientSettings.XRAY).ifPresent(builder::endpointOverride);
    return builder.build();
  }

  @Override
  public void close() {
    if (xray.built() != null) {
      xray.built().close();
    }
    if (kms != null) {
      kms.close();
    }
    if (dynamo.built() != null) {
      dynamo.built().close();
    }
    if (kafkaAdmin.built() != null) {
      kafkaAdmin.built().close(Duration.ofSeconds(5));
    }
    if (producer.built() != null) {
      producer.built().close(Duration.ofSeconds(5));
    }
    if (sfn.built() != null) {
      sfn.built().close();
    }
    if (s3.built() != null) {
      s3.built().close();
    }
    if (dataSource.built() != null) {
      dataSource.built().close();
    }
    if (tracing.built() != null) {
      tracing.built().close();
    }
  }
}
