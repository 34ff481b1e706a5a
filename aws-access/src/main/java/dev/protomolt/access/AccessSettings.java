package dev.protomolt.access;

import dev.protomolt.names.PlatformVariable;
import java.util.Map;
import java.util.Optional;

/**
 * Reads how a process reaches the brokers and the ledger database from the {@code PROTOMOLT_*}
 * variables the stack sets, for the functions and the gateway alike, so both take one set of
 * names and one set of refusals. An explicit bootstrap or JDBC URL wins (the local cloud); else
 * the IAM-style settings (MSK cluster ARN, RDS Proxy host and user) name the AWS resources.
 * Every refusal names its variable and the rule.
 */
public final class AccessSettings {

  private final Map<String, String> values;
  private final String who;

  /**
   * @param who what needs the setting ("this function", "the gateway"), for the refusals
   */
  public AccessSettings(Map<String, String> values, String who) {
    this.values = Map.copyOf(values);
    this.who = who;
  }

  /** {@code AWS_REGION}, {@code us-east-1} when unset. */
  public String region() {
    return optional(PlatformVariable.AWS_REGION.key()).orElse("us-east-1");
  }

  /**
   * {@code PROTOMOLT_KAFKA_BOOTSTRAP} ({@code bootstrap.servers}, no authentication) when set, else
   * {@code PROTOMOLT_KAFKA_CLUSTER_ARN} (MSK with IAM, what the stack sets).
   */
  public BrokerAccess brokers() {
    Optional<String> bootstrap = optional(PlatformVariable.KAFKA_BOOTSTRAP.key());
    if (bootstrap.isPresent()) {
      return new BrokerAccess.Bootstrap(bootstrap.get());
    }
    Optional<String> cluster = optional(PlatformVariable.KAFKA_CLUSTER_ARN.key());
    if (cluster.isEmpty()) {
      throw new IllegalStateException(
          "PROTOMOLT_KAFKA_BOOTSTRAP or PROTOMOLT_KAFKA_CLUSTER_ARN: one is"
              + " required by "
              + who
              + " but neither is set");
    }
    if (!cluster.get().startsWith("arn:") || !cluster.get().contains(":kafka:")) {
      throw new IllegalStateException(
          "PROTOMOLT_KAFKA_CLUSTER_ARN: must be an MSK cluster ARN"
              + " (arn:...:kafka:...), got \""
              + cluster.get()
              + "\"");
    }
    return new BrokerAccess.MskIam(cluster.get());
  }

  /**
   * {@code PROTOMOLT_JDBC_URL} (with {@code PROTOMOLT_JDBC_USER} and {@code PROTOMOLT_JDBC_PASSWORD})
   * when set, else RDS Proxy with IAM from {@code PROTOMOLT_DB_HOST}, {@code PROTOMOLT_DB_PORT}
   * (5432), {@code PROTOMOLT_DB_NAME} and {@code PROTOMOLT_DB_USER} (what the stack sets).
   */
  public DatabaseAccess database() {
    Optional<String> url = optional(PlatformVariable.JDBC_URL.key());
    if (url.isPresent()) {
      if (!url.get().startsWith("jdbc:postgresql:")) {
        throw new IllegalStateException(
            "PROTOMOLT_JDBC_URL: must be a jdbc:postgresql: URL, got \"" + url.get() + "\"");
      }
      return new DatabaseAccess.Password(
          url.get(),
          optional(PlatformVariable.JDBC_USER.key()).orElse(""),
          optional(PlatformVariable.JDBC_PASSWORD.key()).orElse(""));
    }
    if (optional(PlatformVariable.DB_HOST.key()).isEmpty()) {
      throw new IllegalStateException(
          "PROTOMOLT_JDBC_URL or PROTOMOLT_DB_HOST: one is required by "
              + who
              + " but neither is set");
    }
    return new DatabaseAccess.RdsIam(
        required(PlatformVariable.DB_HOST.key()),
        port(PlatformVariable.DB_PORT.key()),
        required(PlatformVariable.DB_NAME.key()),
        required(PlatformVariable.DB_USER.key()),
        region());
  }

  private String required(String key) {
    return optional(key)
        .orElseThrow(
            () -> new IllegalStateException(key + ": required by " + who + " but not set"));
  }

  private Optional<String> optional(String key) {
    String v = values.get(key);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }

  private int port(String key) {
    Optional<String> v = optional(key);
    if (v.isEmpty()) {
      return 5432;
    }
    try {
      int n = Integer.parseInt(v.get());
      if (n < 1 || n > 65535) {
        throw new IllegalStateException(key + ": must be between 1 and 65535, got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalStateException(key + ": must be a whole number, got \"" + v.get() + "\"", e);
    }
  }
}
