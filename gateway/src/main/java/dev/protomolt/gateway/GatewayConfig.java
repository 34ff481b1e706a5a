package dev.protomolt.gateway;

import dev.protomolt.access.AccessSettings;
import dev.protomolt.access.AwsClientSettings;
import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
import dev.protomolt.access.tracing.TraceExport;
import dev.protomolt.gateway.access.GatewayPrincipals;
import dev.protomolt.gateway.diagnostics.DiagnosticsSettings;
import dev.protomolt.gateway.diagnostics.EffectiveSetting;
import dev.protomolt.identity.CallerToken;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.names.PlatformVariable.Reader;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The gateway's configuration: endpoints and names only, read from environment-style keys so the
 * same image runs on ECS and on a laptop against the local cloud. Every refusal names its key.
 *
 * @param port the gRPC port (default 18100)
 * @param modules the module services served, one Kafka consumer each
 * @param brokers how the gateway reaches Kafka: {@code PROTOMOLT_KAFKA_BOOTSTRAP} locally, MSK by
 *     {@code PROTOMOLT_KAFKA_CLUSTER_ARN} with SASL/IAM in AWS (decision 0670)
 * @param consumerGroup the group every gateway task shares
 * @param partitionCapacity most records buffered per partition: the window inside which accounts
 *     share a module service fairly (decision 1652)
 * @param stepFunctionsEndpoint {@code PROTOMOLT_SFN_ENDPOINT}, else {@code AWS_ENDPOINT_URL_SFN};
 *     empty for AWS itself
 * @param region the AWS region of Step Functions
 * @param database the ledger database: {@code PROTOMOLT_JDBC_URL} locally, RDS Proxy with IAM
 *     tokens from {@code PROTOMOLT_DB_HOST}/{@code _PORT}/{@code _NAME}/{@code _USER} in AWS
 * @param objectStores S3 settings per credentials reference the drives name
 * @param environmentName {@code PROTOMOLT_ENV}, the {@code Environment} dimension of the metrics
 *     the gateway emits ({@code local} when unset), and part of every state machine name the graph
 *     door deploys
 * @param graphDoor what {@code PipelineGraphService} needs; empty when it is not served
 * @param logBucket {@code PROTOMOLT_LOG_BUCKET}: where sealing a document log stores its original,
 *     reached with the {@code platform} credentials reference; empty keeps no original (decision
 *     1674)
 * @param diagnostics whether the diagnostics surface exists and where its admin port is
 * @param effective every setting in force with where it came from, secrets redacted (what {@code
 *     GetEffectiveConfig} reports)
 * @param aws the SDK's endpoint ({@code AWS_ENDPOINT_URL_*}) and key variables of the task, read
 *     from the same values: the task's own credentials, not the JVM's
 * @param stsEndpoint where callers' tokens are verified: {@code AWS_ENDPOINT_URL_STS}, else the
 *     regional STS endpoint of {@code region}
 * @param audience {@code PROTOMOLT_GATEWAY_AUDIENCE}: this gateway's name, which every caller's
 *     token must be signed for (decision 1511); unset, the environment's gateway name {@code
 *     protomolt-<env>-gateway}
 * @param principals who may serve which modules and act on which accounts, from {@code
 *     PROTOMOLT_GATEWAY_MODULE_PRINCIPALS} and {@code PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS}
 *     (unset: nobody)
 * @param traces where the task's spans go ({@code OTEL_EXPORTER_OTLP_ENDPOINT}; unset for tracing
 *     off, decision 1793) and whether they are SigV4-signed ({@code PROTOMOLT_OTLP_SIGV4_SERVICE},
 *     decision 1797)
 * @param operatorCallsPerSecond {@code PROTOMOLT_GATEWAY_OPERATOR_RATE}: each principal's calls
 *     per second on the operator doors, bursts of twice that (decision 1746)
 * @param accountShares {@code PROTOMOLT_GATEWAY_ACCOUNT_SHARES}: each account's weight and rate
 *     limit in a module service's turns (decision 1658); unset: equal turns, no limits
 * @param dataKeyArn {@code PROTOMOLT_DATA_KEY_ARN}: the platform KMS key whose data keys seal
 *     right-to-be-forgotten bodies, which the gateway opens for modules and seals again (decision
 *     1509); empty, such a unit is refused naming the variable
 */
public record GatewayConfig(
    int port,
    List<String> modules,
    BrokerAccess brokers,
    String consumerGroup,
    int partitionCapacity,
    Optional<URI> stepFunctionsEndpoint,
    String region,
    DatabaseAccess database,
    Map<String, ObjectStoreSettings> objectStores,
    String environmentName,
    Optional<GraphDoorSettings> graphDoor,
    Optional<String> logBucket,
    DiagnosticsSettings diagnostics,
    List<EffectiveSetting> effective,
    AwsClientSettings aws,
    URI stsEndpoint,
    String audience,
    GatewayPrincipals principals,
    TraceExport traces,
    int operatorCallsPerSecond,
    AccountShares accountShares,
    Optional<String> dataKeyArn) {

  /** The credentials reference the log bucket is reached with. */
  public static final String LOG_CREDENTIALS_REF = "platform";

  private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  public static final int DEFAULT_PORT = 18100;

  /** Operator-door calls per second per principal and task when unset: far above a person's. */
  public static final int DEFAULT_OPERATOR_CALLS_PER_SECOND = 20;

  /**
   * Records buffered per partition by default: deep enough that one account's backlog of ten
   * thousand documents per partition does not hide another account's records from the fair share;
   * the source also stops at 32 MiB per partition.
   */
  public static final int DEFAULT_PARTITION_CAPACITY = 10_000;

  private static final Pattern MODULE_ID = Pattern.compile("[A-Za-z0-9._-]+");

  /** Reads the configuration from {@code values} (the environment, usually). */
  public static GatewayConfig from(Map<String, String> values) {
    int port = integer(values, PlatformVariable.GATEWAY_PORT.key(), DEFAULT_PORT, 0, 65535);
    List<String> modules = new ArrayList<>();
    for (String m : required(values, PlatformVariable.GATEWAY_MODULES.key()).split(",")) {
      String id = m.strip();
      if (!MODULE_ID.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "PROTOMOLT_GATEWAY_MODULES: each entry must be letters,"
                + " digits, '.', '_' or '-' (it names topic pipestream.module.<id>), got \""
                + m
                + "\"");
      }
      modules.add(id);
    }
    AwsClientSettings aws = new AwsClientSettings(values);
    String refs = values.getOrDefault(PlatformVariable.S3_CREDENTIALS_REFS.key(), "platform");
    Map<String, ObjectStoreSettings> stores = new LinkedHashMap<>();
    for (String r : refs.split(",")) {
      String ref = r.strip();
      if (ref.isEmpty()) {
        throw new IllegalArgumentException(
            "PROTOMOLT_S3_CREDENTIALS_REFS: must list non-blank credentials references, got \""
                + refs
                + "\"");
      }
      String part = ref.toUpperCase(Locale.ROOT).replace('-', '_');
      try {
        stores.put(
            ref,
            ObjectStoreSettings.fromValues(
                values.get(PlatformVariable.S3_ENDPOINT.key(part)),
                values.get(PlatformVariable.S3_PATH_STYLE.key(part)),
                values.get(PlatformVariable.S3_ACCESS_KEY_ID.key(part)),
                values.get(PlatformVariable.S3_SECRET_ACCESS_KEY.key(part)),
                aws.endpoint(AwsClientSettings.S3),
                aws.credentials(),
                AwsClientSettings::needsPathStyle));
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }
    String sfn = values.getOrDefault(PlatformVariable.SFN_ENDPOINT.key(), "").strip();
    AccessSettings access = new AccessSettings(values, "the gateway");
    BrokerAccess brokers;
    DatabaseAccess database;
    Optional<URI> sdkSfn;
    try {
      brokers = access.brokers();
      database = access.database();
      sdkSfn = aws.endpoint(AwsClientSettings.SFN);
      aws.credentials();
    } catch (IllegalStateException e) {
      // One exception type for every bad setting, so main reports them all the same way.
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    String sts = values.getOrDefault(PlatformVariable.STS_ENDPOINT.key(), "").strip();
    String environmentName =
        values.getOrDefault(PlatformVariable.ENV.key(), "").isBlank()
            ? "local"
            : values.get(PlatformVariable.ENV.key()).strip();
    String audience =
        CallerToken.requireAudience(
            PlatformVariable.GATEWAY_AUDIENCE.key(),
            values.getOrDefault(
                PlatformVariable.GATEWAY_AUDIENCE.key(), CallerToken.audienceOf(environmentName)));
    GatewayPrincipals principals =
        GatewayPrincipals.parse(
            PlatformVariable.GATEWAY_MODULE_PRINCIPALS.key(),
            values.get(PlatformVariable.GATEWAY_MODULE_PRINCIPALS.key()),
            PlatformVariable.GATEWAY_OPERATOR_PRINCIPALS.key(),
            values.get(PlatformVariable.GATEWAY_OPERATOR_PRINCIPALS.key()));
    return new GatewayConfig(
        port,
        List.copyOf(modules),
        brokers,
        values.getOrDefault(PlatformVariable.GATEWAY_GROUP.key(), "protomolt-gateway"),
        integer(
            values,
            PlatformVariable.GATEWAY_PARTITION_CAPACITY.key(),
            DEFAULT_PARTITION_CAPACITY,
            1,
            1_000_000),
        sfn.isEmpty() ? sdkSfn : Optional.of(uri(sfn, PlatformVariable.SFN_ENDPOINT.key())),
        access.region(),
        database,
        Map.copyOf(stores),
        environmentName,
        GraphDoorSettings.from(values),
        logBucket(values, stores),
        diagnostics(values),
        effective(values),
        aws,
        sts.isEmpty()
            ? URI.create("https://sts." + access.region() + ".amazonaws.com")
            : uri(sts, PlatformVariable.STS_ENDPOINT.key()),
        audience,
        principals,
        TraceExport.from(values),
        integer(
            values,
            PlatformVariable.GATEWAY_OPERATOR_RATE.key(),
            DEFAULT_OPERATOR_CALLS_PER_SECOND,
            1,
            100_000),
        AccountShares.parse(
            PlatformVariable.GATEWAY_ACCOUNT_SHARES.key(),
            values.get(PlatformVariable.GATEWAY_ACCOUNT_SHARES.key())),
        Optional.of(values.getOrDefault(PlatformVariable.DATA_KEY_ARN.key(), "").strip())
            .filter(arn -> !arn.isEmpty()));
  }

  private static Optional<String> logBucket(
      Map<String, String> values, Map<String, ObjectStoreSettings> stores) {
    String key = PlatformVariable.LOG_BUCKET.key();
    String bucket = values.getOrDefault(key, "").strip();
    if (bucket.isEmpty()) {
      return Optional.empty();
    }
    if (!BUCKET_NAME.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          key
              + ": must be an S3 bucket name (3-63 lowercase letters, digits, '.' or '-', starting"
              + " and ending with a letter or digit), got \""
              + bucket
              + "\"");
    }
    if (!stores.containsKey(LOG_CREDENTIALS_REF)) {
      throw new IllegalArgumentException(
          key
              + ": the log bucket is reached with credentials reference '"
              + LOG_CREDENTIALS_REF
              + "', which "
              + PlatformVariable.S3_CREDENTIALS_REFS.key()
              + " does not list");
    }
    return Optional.of(bucket);
  }

  private static DiagnosticsSettings diagnostics(Map<String, String> values) {
    String key = PlatformVariable.DIAGNOSTICS_ENABLED.key();
    String enabled = values.getOrDefault(key, "").strip();
    if (!enabled.isEmpty() && !enabled.equals("true") && !enabled.equals("false")) {
      throw new IllegalArgumentException(key + ": must be true or false, got \"" + enabled + "\"");
    }
    String table = values.getOrDefault(PlatformVariable.DRAFTS_TABLE.key(), "").strip();
    String dynamo = values.getOrDefault(PlatformVariable.DYNAMODB_ENDPOINT.key(), "").strip();
    String admin = values.getOrDefault(PlatformVariable.ADMIN_PORT.key(), "").strip();
    return new DiagnosticsSettings(
        enabled.equals("true"),
        admin.isEmpty()
            ? OptionalInt.empty()
            : OptionalInt.of(integer(values, PlatformVariable.ADMIN_PORT.key(), 0, 0, 65535)),
        table.isEmpty() ? Optional.empty() : Optional.of(table),
        dynamo.isEmpty()
            ? Optional.empty()
            : Optional.of(uri(dynamo, PlatformVariable.DYNAMODB_ENDPOINT.key())));
  }

  /**
   * What the gateway runs with, key by key. A value the environment carries is attributed to the
   * stack when the stack is the one that sets that key on the gateway's task and an environment
   * name says a stack deployed it; otherwise to the environment (an operator, or the local cloud).
   * Keys left unset show the default the gateway falls back on. The gateway reads no file, so no
   * entry has that source (decision 1790).
   */
  private static List<EffectiveSetting> effective(Map<String, String> values) {
    boolean deployed = !values.getOrDefault(PlatformVariable.ENV.key(), "").isBlank();
    Map<String, EffectiveSetting> out = new TreeMap<>();
    for (PlatformVariable v : PlatformVariable.values()) {
      if (!v.isReadBy(Reader.GATEWAY, "gateway")) {
        continue;
      }
      String source =
          deployed && v.isSetByStackOn(Reader.GATEWAY, "gateway")
              ? EffectiveSetting.STACK
              : EffectiveSetting.ENVIRONMENT;
      boolean found = false;
      for (var e : values.entrySet()) {
        if (PlatformVariable.byKey(e.getKey()).filter(v::equals).isPresent()) {
          out.put(e.getKey(), new EffectiveSetting(e.getKey(), e.getValue(), source));
          found = true;
        }
      }
      String fallback = DEFAULTS.get(v);
      if (!found && fallback != null) {
        out.put(v.key(), new EffectiveSetting(v.key(), fallback, EffectiveSetting.DEFAULT));
      }
    }
    GatewaySettings protocol = GatewaySettings.defaults();
    for (var e :
        Map.of(
                "gateway.noWorkWait", protocol.noWorkWait(),
                "gateway.noWorkRetryAfter", protocol.noWorkRetryAfter(),
                "gateway.defaultHeartbeat", protocol.defaultHeartbeat())
            .entrySet()) {
      out.put(
          e.getKey(),
          new EffectiveSetting(e.getKey(), e.getValue().toString(), EffectiveSetting.DEFAULT));
    }
    return List.copyOf(out.values());
  }

  /** The values {@link #from} falls back on when a key is unset. */
  private static final Map<PlatformVariable, String> DEFAULTS =
      Map.of(
          PlatformVariable.ENV, "local",
          PlatformVariable.AWS_REGION, "us-east-1",
          PlatformVariable.GATEWAY_PORT, Integer.toString(DEFAULT_PORT),
          PlatformVariable.GATEWAY_GROUP, "protomolt-gateway",
          PlatformVariable.GATEWAY_PARTITION_CAPACITY, Integer.toString(DEFAULT_PARTITION_CAPACITY),
          PlatformVariable.S3_CREDENTIALS_REFS, "platform",
          PlatformVariable.GATEWAY_OPERATOR_RATE,
              Integer.toString(DEFAULT_OPERATOR_CALLS_PER_SECOND),
          PlatformVariable.DIAGNOSTICS_ENABLED, "false");

  private static String required(Map<String, String> values, String key) {
    String v = values.get(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(key + ": required");
    }
    return v.strip();
  }

  private static int integer(
      Map<String, String> values, String key, int fallback, int min, int max) {
    String v = values.get(key);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n < min || n > max) {
        throw new IllegalArgumentException(
            key + ": must be between " + min + " and " + max + ", got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": must be a whole number, got \"" + v + "\"", e);
    }
  }

  private static URI uri(String value, String key) {
    try {
      URI u = URI.create(value);
      if (u.getScheme() == null || u.getHost() == null) {
        throw new IllegalArgumentException(
            key
                + ": must be an absolute URL such as"
                + " http://127.0.0.1:4566, got \""
                + value
                + "\"");
      }
      return u;
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(key)) {
        throw e;
      }
      throw new IllegalArgumentException(key + ": not a URL: \"" + value + "\"", e);
    }
  }
}
