package dev.protomolt.localstack.cloud;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where the local cloud keeps its data and which loopback ports it listens on. Each port has a
 * system property (the {@code *_PORT_SETTING} constants) that a port-in-use error names.
 *
 * @param dataDir every component keeps its data in a subfolder of this one
 * @param region the AWS region the endpoints pretend to be in
 * @param accessKeyId the one access key S3Proxy accepts (SDK clients sign with it everywhere)
 * @param secretAccessKey its secret
 * @param buckets buckets created on start when missing
 */
public record LocalCloudSettings(
    Path dataDir,
    String region,
    String accessKeyId,
    String secretAccessKey,
    List<String> buckets,
    int s3Port,
    int postgresPort,
    int kafkaPort,
    int kafkaControllerPort,
    int dynamoDbPort,
    int stepFunctionsPort,
    int lambdaPort) {

  public static final String DATA_DIR_SETTING = "protomolt.local.data";
  public static final String S3_PORT_SETTING = "protomolt.local.s3.port";
  public static final String POSTGRES_PORT_SETTING = "protomolt.local.postgres.port";
  public static final String KAFKA_PORT_SETTING = "protomolt.local.kafka.port";
  public static final String KAFKA_CONTROLLER_PORT_SETTING =
      "protomolt.local.kafka.controller.port";
  public static final String DYNAMODB_PORT_SETTING = "protomolt.local.dynamodb.port";
  public static final String STEP_FUNCTIONS_PORT_SETTING = "protomolt.local.stepfunctions.port";
  public static final String LAMBDA_PORT_SETTING = "protomolt.local.lambda.port";

  /** The default data folder, relative to the working directory. */
  public static final Path DEFAULT_DATA_DIR = Path.of(".protomolt");

  public static final String DEFAULT_REGION = "us-east-1";
  // Not secrets: S3Proxy needs some pair to verify signatures, and every SDK client needs one.
  public static final String DEFAULT_ACCESS_KEY_ID = "protomolt-local";
  public static final String DEFAULT_SECRET_ACCESS_KEY = "protomolt-local-secret";

  /** The intake bucket uploads land in, and the bucket the document store writes parts to. */
  public static final List<String> DEFAULT_BUCKETS = List.of("protomolt-intake", "protomolt-store");

  public static final int DEFAULT_S3_PORT = 18110;
  public static final int DEFAULT_POSTGRES_PORT = 18120;
  public static final int DEFAULT_KAFKA_PORT = 18130;
  public static final int DEFAULT_KAFKA_CONTROLLER_PORT = 18131;
  public static final int DEFAULT_DYNAMODB_PORT = 18140;
  public static final int DEFAULT_STEP_FUNCTIONS_PORT = 18150;
  public static final int DEFAULT_LAMBDA_PORT = 18160;

  public LocalCloudSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    requireText(region, "region");
    requireText(accessKeyId, "accessKeyId");
    requireText(secretAccessKey, "secretAccessKey");
    buckets = List.copyOf(Objects.requireNonNull(buckets, "buckets"));
    for (String bucket : buckets) {
      if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
        throw new IllegalArgumentException(
            "buckets: '"
                + bucket
                + "' is not a valid S3 bucket name"
                + " (3-63 characters: lower-case letters, digits, dots and hyphens)");
      }
    }
  }

  /**
   * The settings as they were before the Lambda API had a port of its own: it then listens on a
   * free port (0), so existing callers never collide with anything.
   */
  public LocalCloudSettings(
      Path dataDir,
      String region,
      String accessKeyId,
      String secretAccessKey,
      List<String> buckets,
      int s3Port,
      int postgresPort,
      int kafkaPort,
      int kafkaControllerPort,
      int dynamoDbPort,
      int stepFunctionsPort) {
    this(
        dataDir,
        region,
        accessKeyId,
        secretAccessKey,
        buckets,
        s3Port,
        postgresPort,
        kafkaPort,
        kafkaControllerPort,
        dynamoDbPort,
        stepFunctionsPort,
        0);
  }

  /** The fixed, documented ports under {@code dataDir}. */
  public static LocalCloudSettings defaults(Path dataDir) {
    return new LocalCloudSettings(
        dataDir,
        DEFAULT_REGION,
        DEFAULT_ACCESS_KEY_ID,
        DEFAULT_SECRET_ACCESS_KEY,
        DEFAULT_BUCKETS,
        DEFAULT_S3_PORT,
        DEFAULT_POSTGRES_PORT,
        DEFAULT_KAFKA_PORT,
        DEFAULT_KAFKA_CONTROLLER_PORT,
        DEFAULT_DYNAMODB_PORT,
        DEFAULT_STEP_FUNCTIONS_PORT,
        DEFAULT_LAMBDA_PORT);
  }

  /** Free ports chosen at start: for tests and benchmarks that must not collide with anything. */
  public static LocalCloudSettings ephemeral(Path dataDir) {
    return new LocalCloudSettings(
        dataDir,
        DEFAULT_REGION,
        DEFAULT_ACCESS_KEY_ID,
        DEFAULT_SECRET_ACCESS_KEY,
        DEFAULT_BUCKETS,
        0,
        0,
        0,
        0,
        0,
        0,
        0);
  }

  /** The defaults, each overridden by its system property when set. */
  public static LocalCloudSettings fromSystemProperties() {
    LocalCloudSettings d =
        defaults(Path.of(System.getProperty(DATA_DIR_SETTING, DEFAULT_DATA_DIR.toString())));
    return new LocalCloudSettings(
        d.dataDir(),
        d.region(),
        d.accessKeyId(),
        d.secretAccessKey(),
        d.buckets(),
        port(S3_PORT_SETTING, d.s3Port()),
        port(POSTGRES_PORT_SETTING, d.postgresPort()),
        port(KAFKA_PORT_SETTING, d.kafkaPort()),
        port(KAFKA_CONTROLLER_PORT_SETTING, d.kafkaControllerPort()),
        port(DYNAMODB_PORT_SETTING, d.dynamoDbPort()),
        port(STEP_FUNCTIONS_PORT_SETTING, d.stepFunctionsPort()),
        port(LAMBDA_PORT_SETTING, d.lambdaPort()));
  }

  public LocalCloudSettings withDataDir(Path newDataDir) {
    return new LocalCloudSettings(
        newDataDir,
        region,
        accessKeyId,
        secretAccessKey,
        buckets,
        s3Port,
        postgresPort,
        kafkaPort,
        kafkaControllerPort,
        dynamoDbPort,
        stepFunctionsPort,
        lambdaPort);
  }

  public LocalCloudSettings withBuckets(List<String> newBuckets) {
    return new LocalCloudSettings(
        dataDir,
        region,
        accessKeyId,
        secretAccessKey,
        newBuckets,
        s3Port,
        postgresPort,
        kafkaPort,
        kafkaControllerPort,
        dynamoDbPort,
        stepFunctionsPort,
        lambdaPort);
  }

  private static int port(String setting, int fallback) {
    String value = System.getProperty(setting);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          setting + " must be a port number, was '" + value + "'", e);
    }
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}
