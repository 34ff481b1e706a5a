package dev.protomolt.lambda.wiring;

import dev.protomolt.access.AccessSettings;
import dev.protomolt.access.AwsClientSettings;
import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
import dev.protomolt.access.tracing.TraceExport;
import dev.protomolt.identity.OperatorGrants;
import dev.protomolt.names.PlatformVariable;
import dev.protomolt.repository.s3.ObjectStoreSettings;
import dev.protomolt.tracing.Tracing;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code PROTOMOLT_*} settings a function reads from its environment. Each is read only when
 * the handler being built needs it, so a function fails on the settings it uses and on no others;
 * every refusal names its variable and the rule. The S3, Kafka, JDBC and Step Functions keys are
 * the gateway's (gateway/README.md), so one set of names points both at AWS or at the local cloud.
 */
public final class FunctionEnvironment {

  private final Map<String, String> values;

  public FunctionEnvironment(Map<String, String> values) {
    this.values = Map.copyOf(Objects.requireNonNull(values, "values"));
  }

  public static FunctionEnvironment fromSystem() {
    return new FunctionEnvironment(System.getenv());
  }

  /** {@code PROTOMOLT_ENV}: the environment name, part of every state machine name. */
  public String environmentName() {
    return required(PlatformVariable.ENV.key());
  }

  public String region() {
    return optional(PlatformVariable.AWS_REGION.key()).orElse("us-east-1");
  }

  /** How this function reaches the brokers (shared with the gateway, decision 0670). */
  public BrokerAccess brokers() {
    return new AccessSettings(values, "this function").brokers();
  }

  /** How this function reaches the ledger database (shared with the gateway, decision 0670). */
  public DatabaseAccess database() {
    return new AccessSettings(values, "this function").database();
  }

  /**
   * {@code PROTOMOLT_SFN_ENDPOINT}, else the SDK's {@code AWS_ENDPOINT_URL_SFN} or {@code
   * AWS_ENDPOINT_URL}: empty for Step Functions itself.
   */
  public Optional<URI> stepFunctionsEndpoint() {
    Optional<URI> own =
        optional(PlatformVariable.SFN_ENDPOINT.key())
            .map(v -> uri(PlatformVariable.SFN_ENDPOINT.key(), v));
    return own.isPresent() ? own : aws().endpoint(AwsClientSettings.SFN);
  }

  /** The SDK's standard endpoint and key variables of this function (not the JVM's). */
  public AwsClientSettings aws() {
    return new AwsClientSettings(values);
  }

  /**
   * S3 settings per credentials reference the drives name: {@code PROTOMOLT_S3_CREDENTIALS_REFS}
   * (default {@code platform}) and per reference {@code PROTOMOLT_S3_<REF>_ENDPOINT},
   * {@code _PATH_STYLE}, {@code _ACCESS_KEY_ID}, {@code _SECRET_ACCESS_KEY}; what a reference
   * leaves unset comes from the function's own SDK variables ({@code AWS_ENDPOINT_URL_S3}, its
   * keys), so none set means AWS's own endpoint and the function's role.
   */
  public Map<String, ObjectStoreSettings> objectStores() {
    AwsClientSettings aws = aws();
    String refs = optional(PlatformVariable.S3_CREDENTIALS_REFS.key()).orElse("platform");
    Map<String, ObjectStoreSettings> stores = new LinkedHashMap<>();
    for (String r : refs.split(",")) {
      String ref = r.strip();
      if (ref.isEmpty()) {
        throw new IllegalStateException(
            "PROTOMOLT_S3_CREDENTIALS_REFS: must list non-blank credentials"
                + " references, got \""
                + refs
                + "\"");
      }
      String part = ref.toUpperCase(Locale.ROOT).replace('-', '_');
      // The refusal names the reference's keys, e.g. PROTOMOLT_S3_PLATFORM_*.
      String prefix = PlatformVariable.S3_ENDPOINT.key(part).replace("ENDPOINT", "");
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
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(prefix + "*: " + e.getMessage(), e);
      }
    }
    return stores;
  }

  /** {@code PROTOMOLT_EXECUTION_ROLE_ARN}: the role the state machines run as (graph admin). */
  public String executionRoleArn() {
    return arn(PlatformVariable.EXECUTION_ROLE_ARN.key());
  }

  /** {@code PROTOMOLT_<HOP>_FUNCTION_ARN} for PREPARE, DISPATCH, COMPLETE and DLQ (graph admin). */
  public String hopFunctionArn(String hop) {
    return arn(PlatformVariable.valueOf(hop + "_FUNCTION_ARN").key());
  }

  /** {@code PROTOMOLT_INTAKE_FUNCTION_ARN}: the intake alias account rules notify (account events). */
  public String intakeFunctionArn() {
    return arn(PlatformVariable.INTAKE_FUNCTION_ARN.key());
  }

  /**
   * The platform KMS key right-to-be-forgotten data keys are generated under (decision 1750);
   * empty when the stack gives this function none.
   */
  public Optional<String> dataKeyArn() {
    return optional(PlatformVariable.DATA_KEY_ARN.key());
  }

  /**
   * {@code PROTOMOLT_DRAFTS_TABLE}: the DynamoDB table the console's drafts live in, the one the
   * gateway's graph door uses (console-api).
   */
  public String draftsTable() {
    String key = PlatformVariable.DRAFTS_TABLE.key();
    String v = required(key);
    if (!v.matches("[A-Za-z0-9_.-]{3,255}")) {
      throw new IllegalStateException(
          key
              + ": must be a DynamoDB table name (3-255 letters, digits, '_', '-' or '.'), got \""
              + v
              + "\"");
    }
    return v;
  }

  /**
   * {@code PROTOMOLT_CONSOLE_OPERATOR_PRINCIPALS}: which operators the console API serves, and on
   * which accounts (decision 1752); unset grants nobody, so the console fails closed.
   *
   * @throws IllegalArgumentException naming the variable and the entry that breaks its syntax
   */
  public OperatorGrants consoleOperatorGrants() {
    String key = PlatformVariable.CONSOLE_OPERATOR_PRINCIPALS.key();
    return OperatorGrants.parse(key, optional(key).orElse(""));
  }

  /**
   * {@code PROTOMOLT_REPLAY_STATE_MACHINE_ARN}: the replay state machine the console starts
   * replays on (console-api).
   */
  public String replayStateMachineArn() {
    String key = PlatformVariable.REPLAY_STATE_MACHINE_ARN.key();
    String v = arn(key);
    if (!v.contains(":stateMachine:")) {
      throw new IllegalStateException(
          key + ": must be a state machine ARN (arn:...:stateMachine:<name>), got \"" + v + "\"");
    }
    return v;
  }

  /** {@code PROTOMOLT_RETENTION_WINDOW}: an ISO-8601 duration such as P30D; unset keeps every copy. */
  public Optional<Duration> retentionWindow() {
    Optional<String> v = optional(PlatformVariable.RETENTION_WINDOW.key());
    if (v.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Duration.parse(v.get()));
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          "PROTOMOLT_RETENTION_WINDOW: must be an ISO-8601 duration such as"
              + " P30D, got \""
              + v.get()
              + "\"",
          e);
    }
  }

  /** {@code PROTOMOLT_RETENTION_BATCH}: most copies one retention run tombstones (default 500). */
  public int retentionBatch() {
    return integer(PlatformVariable.RETENTION_BATCH.key(), 500, 1, 100_000);
  }

  /** {@code PROTOMOLT_RECONCILER_DELETE}: {@code true} deletes orphans; default is a dry run. */
  public boolean reconcilerDeletes() {
    String v = optional(PlatformVariable.RECONCILER_DELETE.key()).orElse("false");
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalStateException(
          "PROTOMOLT_RECONCILER_DELETE: must be true or false, got \"" + v + "\"");
    }
    return v.equals("true");
  }

  /**
   * {@code PROTOMOLT_EXECUTION_TRANSCRIPTS}: whether prepare, complete and dlq write each
   * execution's transcript (decision 1675); on unless set to {@code false}.
   */
  public boolean executionTranscripts() {
    String key = PlatformVariable.EXECUTION_TRANSCRIPTS.key();
    String v = optional(key).orElse("true");
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalStateException(key + ": must be true or false, got \"" + v + "\"");
    }
    return v.equals("true");
  }

  /**
   * The function's tracer (decision 1793): spans over OTLP/HTTP to {@code
   * OTEL_EXPORTER_OTLP_ENDPOINT}, SigV4-signed with the function's own keys when {@code
   * PROTOMOLT_OTLP_SIGV4_SERVICE} is set (decision 1797), named for the handler {@code
   * QUARKUS_LAMBDA_HANDLER} selects; off when the endpoint is unset.
   */
  public Tracing tracing() {
    return TraceExport.from(values)
        .open(optional(PlatformVariable.QUARKUS_LAMBDA_HANDLER.key()).orElse("protomolt-function"));
  }

  String required(String key) {
    return optional(key)
        .orElseThrow(
            () -> new IllegalStateException(key + ": required by this function" + " but not set"));
  }

  Optional<String> optional(String key) {
    String v = values.get(key);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }

  private String arn(String key) {
    String v = required(key);
    if (!v.startsWith("arn:")) {
      throw new IllegalStateException(key + ": must be an ARN (arn:...), got \"" + v + "\"");
    }
    return v;
  }

  private int integer(String key, int fallback, int min, int max) {
    Optional<String> v = optional(key);
    if (v.isEmpty()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v.get());
      if (n < min || n > max) {
        throw new IllegalStateException(
            key + ": must be between " + min + " and " + max + ", got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalStateException(key + ": must be a whole number, got \"" + v.get() + "\"", e);
    }
  }

  private static URI uri(String key, String value) {
    try {
      URI u = URI.create(value);
      if (u.getScheme() == null || u.getHost() == null) {
        throw new IllegalStateException(
            key
                + ": must be an absolute URL such as http://127.0.0.1:18150,"
                + " got \""
                + value
                + "\"");
      }
      return u;
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(key + ": not a URL: \"" + value + "\"", e);
    }
  }
}
