package dev.protomolt.gateway;

import dev.protomolt.access.AccessSettings;
import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
import dev.protomolt.gateway.access.GatewayPrincipals;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * @param partitionCapacity most records buffered per partition
 * @param stepFunctionsEndpoint empty for AWS itself
 * @param region the AWS region of Step Functions
 * @param database the ledger database: {@code PROTOMOLT_JDBC_URL} locally, RDS Proxy with IAM
 *     tokens from {@code PROTOMOLT_DB_HOST}/{@code _PORT}/{@code _NAME}/{@code _USER} in AWS
 * @param objectStores S3 settings per credentials reference the drives name
 * @param environmentName {@code PROTOMOLT_ENV}, the {@code Environment} dimension of the metrics
 *     the gateway emits ({@code local} when unset)
 * @param stsEndpoint where callers' tokens are verified: {@code AWS_ENDPOINT_URL_STS}, else the
 *     regional STS endpoint of {@code region}
 * @param principals who may serve which modules and act on which accounts, from {@code
 *     PROTOMOLT_GATEWAY_MODULE_PRINCIPALS} and {@code PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS}
 *     (unset: nobody)
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
    URI stsEndpoint,
    GatewayPrincipals principals) {

  public static final int DEFAULT_PORT = 18100;
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
      stores.put(
          ref,
          ObjectStoreSettings.fromValues(
              values.get(PlatformVariable.S3_ENDPOINT.key(part)),
              values.get(PlatformVariable.S3_PATH_STYLE.key(part)),
              values.get(PlatformVariable.S3_ACCESS_KEY_ID.key(part)),
              values.get(PlatformVariable.S3_SECRET_ACCESS_KEY.key(part))));
    }
    String sfn = values.getOrDefault(PlatformVariable.SFN_ENDPOINT.key(), "").strip();
    AccessSettings access = new AccessSettings(values, "the gateway");
    BrokerAccess brokers;
    DatabaseAccess database;
    try {
      brokers = access.brokers();
      database = access.database();
    } catch (IllegalStateException e) {
      // One exception type for every bad setting, so main reports them all the same way.
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    String sts = values.getOrDefault(PlatformVariable.STS_ENDPOINT.key(), "").strip();
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
        integer(values, PlatformVariable.GATEWAY_PARTITION_CAPACITY.key(), 256, 1, 1_000_000),
        sfn.isEmpty()
            ? Optional.empty()
            : Optional.of(uri(sfn, PlatformVariable.SFN_ENDPOINT.key())),
        access.region(),
        database,
        Map.copyOf(stores),
        values.getOrDefault(PlatformVariable.ENV.key(), "").isBlank()
            ? "local"
            : values.get(PlatformVariable.ENV.key()).strip(),
        sts.isEmpty()
            ? URI.create("https://sts." + access.region() + ".amazonaws.com")
            : uri(sts, PlatformVariable.STS_ENDPOINT.key()),
        principals);
  }

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
