package dev.protomolt.cli;

import dev.protomolt.identity.CallerToken;
import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.cloud.LocalPostgres;
import dev.protomolt.localstack.lb.LocalCertificates;
import dev.protomolt.names.PlatformVariable;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every endpoint, bucket and credential of the local platform as environment variables. {@code up}
 * prints them from the running services and {@code env} from the same settings without starting
 * anything, so both agree whether or not {@code up} is running (decision 0960).
 */
public final class LocalEnvironment {

  private static final String HOST = "127.0.0.1";
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:@%+=,-]+");

  private LocalEnvironment() {}

  /** The endpoints the local cloud answers on when started with {@code settings}. */
  public static LocalCloudEndpoints expected(LocalCloudSettings settings) {
    for (int port :
        new int[] {
          settings.s3Port(),
          settings.postgresPort(),
          settings.kafkaPort(),
          settings.dynamoDbPort(),
          settings.stepFunctionsPort()
        }) {
      if (port == 0) {
        throw new IllegalArgumentException(
            "settings: a port chosen at start (0) cannot be known"
                + " in advance; set the -Dprotomolt.local.*.port properties to fixed ports");
      }
    }
    return new LocalCloudEndpoints(
        settings.dataDir().toAbsolutePath(),
        settings.region(),
        settings.accessKeyId(),
        settings.secretAccessKey(),
        URI.create("http://" + HOST + ":" + settings.s3Port()),
        settings.buckets(),
        URI.create("http://" + HOST + ":" + settings.dynamoDbPort()),
        HOST + ":" + settings.kafkaPort(),
        "jdbc:postgresql://" + HOST + ":" + settings.postgresPort() + "/" + LocalPostgres.DATABASE,
        LocalPostgres.USER,
        LocalPostgres.USER,
        Optional.of(URI.create("http://" + HOST + ":" + settings.stepFunctionsPort())),
        // Settings from before the Lambda API had its own port leave it to chance (0): unknown.
        settings.lambdaPort() == 0
            ? Optional.empty()
            : Optional.of(URI.create("http://" + HOST + ":" + settings.lambdaPort())));
  }

  /**
   * The variables for a platform whose gateway sits behind its TLS front on {@code gatewayPort},
   * trusted by the CA the local cloud keeps in its data folder (known without starting anything):
   * the AWS SDKs' and the AWS CLI's own ({@code AWS_ENDPOINT_URL_<SERVICE_ID>} per
   * service, the Lambda API's included, region, key pair) and ours for the gateway, Kafka, PostgreSQL, buckets and the index.
   */
  public static Map<String, String> of(LocalCloudEndpoints ep, int gatewayPort) {
    return of(
        ep, gatewayPort, Optional.of(LocalCertificates.caFile(LocalCloud.tlsDir(ep.dataDir()))));
  }

  /**
   * As {@link #of(LocalCloudEndpoints, int)} with the CA given: the gateway is reached through the
   * local load balancer's TLS front on {@code gatewayPort}, and {@code PROTOMOLT_GATEWAY_CA} names
   * the CA file clients trust (decision 1745); empty names none (a gateway reached in plaintext).
   */
  public static Map<String, String> of(
      LocalCloudEndpoints ep, int gatewayPort, Optional<Path> gatewayCa) {
    Map<String, String> env = new LinkedHashMap<>(ep.environment());
    // The AWS CLI finds the template's functions on the local Lambda API (decision 1584).
    ep.lambda().ifPresent(uri -> env.put("AWS_ENDPOINT_URL_LAMBDA", uri.toString()));
    // Without a profile, SDKs would otherwise probe the EC2 instance metadata service for one.
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("PROTOMOLT_DATA", ep.dataDir().toString());
    env.put("PROTOMOLT_GATEWAY", HOST + ":" + gatewayPort);
    gatewayCa.ifPresent(ca -> env.put(GatewayTransport.CA_VARIABLE, ca.toString()));
    // The gateway a client's tokens are signed for, as the stack names it (decision 1511).
    env.put(CallerToken.AUDIENCE_VARIABLE, LocalPrincipals.AUDIENCE);
    // What a client outside the platform signs its gateway calls with: the local STS (on the
    // local AWS API port) and the operator `up` registers (decision 1742).
    ep.lambda().ifPresent(api -> env.put("AWS_ENDPOINT_URL_STS", api.toString()));
    // A module or tool run from this shell exports its spans to the local collector (decision
    // 1794), which keeps them for `protomolt trace`.
    ep.traces().ifPresent(uri -> env.put(PlatformVariable.OTLP_ENDPOINT.key(), uri.toString()));
    env.put(LocalPrincipals.OPERATOR_KEY_VARIABLE, LocalPrincipals.OPERATOR_ACCESS_KEY_ID);
    env.put(LocalPrincipals.OPERATOR_SECRET_VARIABLE, LocalPrincipals.OPERATOR_SECRET_ACCESS_KEY);
    env.put("PROTOMOLT_INTAKE_BUCKET", LocalPlatform.INTAKE_BUCKET);
    env.put("PROTOMOLT_STORE_BUCKET", LocalPlatform.STORE_BUCKET);
    env.put("PROTOMOLT_INDEX_DIR", indexDir(ep.dataDir()).toString());
    return env;
  }

  /** Where the sample sink keeps its Lucene index and receipts under a data folder. */
  public static Path indexDir(Path dataDir) {
    return dataDir.toAbsolutePath().resolve("index");
  }

  /**
   * One {@code export KEY=VALUE;} line per variable, quoted where the shell needs it, so both
   * {@code eval $(protomolt env)} and {@code eval "$(protomolt env)"} export them.
   */
  public static String exportLine(String key, String value) {
    return "export " + key + "=" + shellQuoted(value) + ";";
  }

  static String shellQuoted(String value) {
    if (!value.isEmpty() && SHELL_SAFE.matcher(value).matches()) {
      return value;
    }
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
