package dev.protomolt.localstack.cloud;

import dev.protomolt.names.PlatformVariable;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where each local service answers, and the credentials to use. Production code is pointed at
 * the local cloud with these values alone; {@link #environment()} gives them as the environment
 * variables the AWS SDKs and the AWS CLI read.
 *
 * @param stepFunctions empty until the local Step Functions runtime is plugged in
 * @param lambda the local Lambda API (ListFunctions, GetFunction, Invoke); empty where unknown.
 *     {@link #environment()} leaves it out: {@code protomolt env} derives its variables from the
 *     settings, and both must print the same set.
 */
public record LocalCloudEndpoints(
    Path dataDir,
    String region,
    String accessKeyId,
    String secretAccessKey,
    URI s3,
    List<String> buckets,
    URI dynamoDb,
    String kafkaBootstrapServers,
    String postgresJdbcUrl,
    String postgresUser,
    String postgresPassword,
    Optional<URI> stepFunctions,
    Optional<URI> lambda) {

  public LocalCloudEndpoints {
    buckets = List.copyOf(buckets);
  }

  /** The endpoints without a known Lambda API, as callers built them before it existed. */
  public LocalCloudEndpoints(
      Path dataDir,
      String region,
      String accessKeyId,
      String secretAccessKey,
      URI s3,
      List<String> buckets,
      URI dynamoDb,
      String kafkaBootstrapServers,
      String postgresJdbcUrl,
      String postgresUser,
      String postgresPassword,
      Optional<URI> stepFunctions) {
    this(
        dataDir,
        region,
        accessKeyId,
        secretAccessKey,
        s3,
        buckets,
        dynamoDb,
        kafkaBootstrapServers,
        postgresJdbcUrl,
        postgresUser,
        postgresPassword,
        stepFunctions,
        Optional.empty());
  }

  /**
   * The local OTLP/HTTP collector, {@code OTEL_EXPORTER_OTLP_ENDPOINT}: it answers {@code
   * /v1/traces} on the local AWS API port, beside Lambda's API and STS (decision 1794).
   */
  public Optional<URI> traces() {
    return lambda;
  }

  /**
   * The variables that point an unmodified AWS SDK or AWS CLI at the local cloud
   * ({@code AWS_ENDPOINT_URL_<SERVICE>} is read by both), plus ours for Kafka and PostgreSQL.
   */
  public Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("AWS_REGION", region);
    env.put("AWS_DEFAULT_REGION", region);
    env.put("AWS_ACCESS_KEY_ID", accessKeyId);
    env.put("AWS_SECRET_ACCESS_KEY", secretAccessKey);
    env.put("AWS_ENDPOINT_URL_S3", s3.toString());
    env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.toString());
    stepFunctions.ifPresent(uri -> env.put("AWS_ENDPOINT_URL_SFN", uri.toString()));
    // The names the functions and the gateway read, so `protomolt env` output configures them.
    env.put(PlatformVariable.KAFKA_BOOTSTRAP.key(), kafkaBootstrapServers);
    env.put(PlatformVariable.JDBC_URL.key(), postgresJdbcUrl);
    env.put(PlatformVariable.JDBC_USER.key(), postgresUser);
    env.put(PlatformVariable.JDBC_PASSWORD.key(), postgresPassword);
    return env;
  }
}
