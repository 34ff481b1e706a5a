package dev.protomolt.names;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every environment variable a function or the gateway reads, who reads it and whether the stack
 * must set it. The readers' code takes each key from here, and the drift test holds the
 * synthesized template to the same table: the stack may set only a key its reader reads, and must
 * set every key marked {@link #stackSets() as the stack's}. Keys only the local cloud sets (a
 * bootstrap server, a JDBC URL, an endpoint override) are read but never set by the stack.
 */
public enum PlatformVariable {
  ENV("PROTOMOLT_ENV", both(), both()),
  AWS_REGION("AWS_REGION", both(), gateway()),
  KAFKA_CLUSTER_ARN("PROTOMOLT_KAFKA_CLUSTER_ARN", both(), both()),
  KAFKA_BOOTSTRAP("PROTOMOLT_KAFKA_BOOTSTRAP", both(), none()),
  DB_HOST("PROTOMOLT_DB_HOST", both(), both()),
  DB_PORT("PROTOMOLT_DB_PORT", both(), both()),
  DB_NAME("PROTOMOLT_DB_NAME", both(), both()),
  DB_USER("PROTOMOLT_DB_USER", both(), both()),
  JDBC_URL("PROTOMOLT_JDBC_URL", both(), none()),
  JDBC_USER("PROTOMOLT_JDBC_USER", both(), none()),
  JDBC_PASSWORD("PROTOMOLT_JDBC_PASSWORD", both(), none()),
  SFN_ENDPOINT("PROTOMOLT_SFN_ENDPOINT", both(), none()),
  S3_CREDENTIALS_REFS("PROTOMOLT_S3_CREDENTIALS_REFS", both(), none()),
  /** Per credentials reference: {@code PROTOMOLT_S3_<REF>_ENDPOINT} and its siblings. */
  S3_ENDPOINT("PROTOMOLT_S3_*_ENDPOINT", both(), none()),
  S3_PATH_STYLE("PROTOMOLT_S3_*_PATH_STYLE", both(), none()),
  S3_ACCESS_KEY_ID("PROTOMOLT_S3_*_ACCESS_KEY_ID", both(), none()),
  S3_SECRET_ACCESS_KEY("PROTOMOLT_S3_*_SECRET_ACCESS_KEY", both(), none()),
  /** Quarkus amazon-lambda's {@code quarkus.lambda.handler}: which named handler a function runs. */
  QUARKUS_LAMBDA_HANDLER("QUARKUS_LAMBDA_HANDLER", functions(), functions()),
  EXECUTION_ROLE_ARN("PROTOMOLT_EXECUTION_ROLE_ARN", both(), both(), "graph-admin", "console-api"),
  PREPARE_FUNCTION_ARN(
      "PROTOMOLT_PREPARE_FUNCTION_ARN", both(), both(), "graph-admin", "console-api"),
  DISPATCH_FUNCTION_ARN(
      "PROTOMOLT_DISPATCH_FUNCTION_ARN", both(), both(), "graph-admin", "console-api"),
  COMPLETE_FUNCTION_ARN(
      "PROTOMOLT_COMPLETE_FUNCTION_ARN", both(), both(), "graph-admin", "console-api"),
  DLQ_FUNCTION_ARN("PROTOMOLT_DLQ_FUNCTION_ARN", both(), both(), "graph-admin", "console-api"),
  INTAKE_FUNCTION_ARN("PROTOMOLT_INTAKE_FUNCTION_ARN", functions(), functions(), "account-events"),
  RETENTION_WINDOW("PROTOMOLT_RETENTION_WINDOW", functions(), functions(), "retention"),
  RETENTION_BATCH("PROTOMOLT_RETENTION_BATCH", functions(), none(), "retention"),
  RECONCILER_DELETE("PROTOMOLT_RECONCILER_DELETE", functions(), functions(), "reconciler"),
  GATEWAY_PORT("PROTOMOLT_GATEWAY_PORT", gateway(), gateway()),
  GATEWAY_MODULES("PROTOMOLT_GATEWAY_MODULES", gateway(), gateway()),
  GATEWAY_GROUP("PROTOMOLT_GATEWAY_GROUP", gateway(), gateway()),
  GATEWAY_PARTITION_CAPACITY("PROTOMOLT_GATEWAY_PARTITION_CAPACITY", gateway(), none()),
  /**
   * Each account's weight and rate limit in a module service's turns ({@code
   * account=weight:N,rate:N;...}, decision 1658), from the environment's config; empty for equal
   * turns.
   */
  GATEWAY_ACCOUNT_SHARES("PROTOMOLT_GATEWAY_ACCOUNT_SHARES", gateway(), gateway()),
  /**
   * The graph drafts table: the gateway's {@code PipelineGraphService} and the console's designer
   * keep drafts in it.
   */
  DRAFTS_TABLE("PROTOMOLT_DRAFTS_TABLE", both(), both(), "console-api"),
  /**
   * The platform KMS key data keys of right-to-be-forgotten documents are generated under
   * (decision 1750): intake seals under a new one, the hops open and seal, the terminal hops
   * destroy it; the gateway opens and seals them for modules (decision 1509).
   */
  DATA_KEY_ARN("PROTOMOLT_DATA_KEY_ARN", both(), both(), "intake", "prepare", "complete", "dlq"),
  /** The AWS SDKs' own endpoint override for KMS; only the local cloud sets it. */
  KMS_ENDPOINT("AWS_ENDPOINT_URL_KMS", both(), none(), "intake", "prepare", "complete", "dlq"),
  /** The AWS SDKs' own endpoint override for DynamoDB; only the local cloud sets it. */
  DYNAMODB_ENDPOINT("AWS_ENDPOINT_URL_DYNAMODB", both(), none(), "console-api"),
  /** The replay state machine ({@code protomolt-<env>-replay}) the console starts replays on. */
  REPLAY_STATE_MACHINE_ARN(
      "PROTOMOLT_REPLAY_STATE_MACHINE_ARN", functions(), functions(), "console-api"),
  /**
   * Operator role ARN to the accounts it may act on in the console API, the gateway's operator
   * syntax ({@code ARN=acme|beta;ARN=*}); unset, the console serves nobody (decision 1752).
   */
  CONSOLE_OPERATOR_PRINCIPALS(
      "PROTOMOLT_CONSOLE_OPERATOR_PRINCIPALS", functions(), functions(), "console-api"),
  /** The bucket where sealing a document log stores its original (decision 1674). */
  LOG_BUCKET("PROTOMOLT_LOG_BUCKET", gateway(), gateway()),
  /** {@code true} or {@code false}: whether the hop functions write transcripts (decision 1675). */
  EXECUTION_TRANSCRIPTS(
      "PROTOMOLT_EXECUTION_TRANSCRIPTS", functions(), functions(), "prepare", "complete", "dlq"),
  /**
   * Whether the gateway serves the diagnostics probes (gRPC and HTTP); the stack sets it from the
   * environment's config, off unless the config turns it on.
   */
  DIAGNOSTICS_ENABLED("PROTOMOLT_DIAGNOSTICS_ENABLED", gateway(), gateway()),
  /** The gateway's admin HTTP port (health and the diagnostics REST shell). */
  ADMIN_PORT("PROTOMOLT_ADMIN_PORT", gateway(), gateway()),
  /** Module id to the role ARNs that may serve it: {@code parser=ARN|ARN;chunker=ARN}. */
  GATEWAY_MODULE_PRINCIPALS("PROTOMOLT_GATEWAY_MODULE_PRINCIPALS", gateway(), gateway()),
  /** Operator role ARN to the accounts it may act on: {@code ARN=acme|beta;ARN=*}. */
  GATEWAY_OPERATOR_PRINCIPALS("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS", gateway(), gateway()),
  /**
   * Calls per second each principal may make on the gateway's operator doors, per task; bursts of
   * twice that (decision 1746). Unset: {@code 20}.
   */
  GATEWAY_OPERATOR_RATE("PROTOMOLT_GATEWAY_OPERATOR_RATE", gateway(), none()),
  /**
   * The gateway's name, which every caller's token must be signed for (decision 1511): the stack
   * sets the environment's gateway name, and clients sign for the same value.
   */
  GATEWAY_AUDIENCE("PROTOMOLT_GATEWAY_AUDIENCE", gateway(), gateway()),
  /** Where the gateway verifies callers' tokens; unset in AWS (the regional STS endpoint). */
  STS_ENDPOINT("AWS_ENDPOINT_URL_STS", gateway(), none()),
  /**
   * OpenTelemetry's own base OTLP/HTTP endpoint: spans go to {@code <it>/v1/traces}; unset,
   * tracing is off (decision 1793). The stack sets X-Ray's regional OTLP endpoint; the local
   * cloud replaces it with its own collector (decisions 1794, 1797).
   */
  OTLP_ENDPOINT("OTEL_EXPORTER_OTLP_ENDPOINT", both(), both()),
  /**
   * The SigV4 service every trace export is signed for ({@code xray}); unset, exports go
   * unsigned. The stack sets it beside the endpoint; locally the collector checks the signature
   * and the role's {@code xray:PutTraceSegments} grant (decision 1797).
   */
  OTLP_SIGV4_SERVICE("PROTOMOLT_OTLP_SIGV4_SERVICE", both(), both());

  /** Who reads a variable: every Lambda function (or those named), or the gateway's task. */
  public enum Reader {
    FUNCTIONS,
    GATEWAY
  }

  private final String key;
  private final Set<Reader> readBy;
  private final Set<Reader> stackSets;
  private final List<String> onlyFunctions;

  PlatformVariable(String key, Set<Reader> readBy, Set<Reader> stackSets, String... onlyFunctions) {
    this.key = key;
    this.readBy = readBy;
    this.stackSets = stackSets;
    this.onlyFunctions = List.of(onlyFunctions);
  }

  /** The variable's name; a {@code *} stands for one credentials reference. */
  public String key() {
    return key;
  }

  /** The key with {@code *} filled in, e.g. {@code PROTOMOLT_S3_PLATFORM_ENDPOINT}. */
  public String key(String part) {
    return key.replace("*", part);
  }

  public Set<Reader> readBy() {
    return EnumSet.copyOf(readBy);
  }

  /** The readers on which the stack must set the variable; empty when only the local cloud does. */
  public Set<Reader> stackSets() {
    return stackSets.isEmpty() ? EnumSet.noneOf(Reader.class) : EnumSet.copyOf(stackSets);
  }

  /** The functions (by handler name) that read it; empty for every function. */
  public List<String> onlyFunctions() {
    return onlyFunctions;
  }

  /** Whether {@code reader} reads it, and for a function, whether function {@code handler} does. */
  public boolean isReadBy(Reader reader, String handler) {
    return readBy.contains(reader)
        && (reader != Reader.FUNCTIONS
            || onlyFunctions.isEmpty()
            || onlyFunctions.contains(handler));
  }

  /** Whether the stack must set it on {@code reader} (function {@code handler}). */
  public boolean isSetByStackOn(Reader reader, String handler) {
    return stackSets.contains(reader) && isReadBy(reader, handler);
  }

  /** The entry whose key is {@code name}, a {@code *} matching one credentials reference. */
  public static Optional<PlatformVariable> byKey(String name) {
    return Arrays.stream(values()).filter(v -> v.matches(name)).findFirst();
  }

  private boolean matches(String name) {
    int star = key.indexOf('*');
    if (star < 0) {
      return key.equals(name);
    }
    String head = key.substring(0, star);
    String tail = key.substring(star + 1);
    return name.length() > head.length() + tail.length()
        && name.startsWith(head)
        && name.endsWith(tail)
        && name.substring(head.length(), name.length() - tail.length()).matches("[A-Z0-9_]+");
  }

  private static Set<Reader> both() {
    return EnumSet.of(Reader.FUNCTIONS, Reader.GATEWAY);
  }

  private static Set<Reader> functions() {
    return EnumSet.of(Reader.FUNCTIONS);
  }

  private static Set<Reader> gateway() {
    return EnumSet.of(Reader.GATEWAY);
  }

  private static Set<Reader> none() {
    return EnumSet.noneOf(Reader.class);
  }
}
