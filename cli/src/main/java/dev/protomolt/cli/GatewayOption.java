package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.identity.CallerToken;
import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --gateway HOST:PORT}: where a running {@code protomolt up} serves its gRPC doors. The
 * default is {@code $PROTOMOLT_GATEWAY} (set by {@code eval $(protomolt env)}), else the gateway's
 * default port on loopback. {@code --gateway-ca FILE} ({@code $PROTOMOLT_GATEWAY_CA}) makes the
 * channel TLS trusting that CA only, as the local load balancer's front needs (decision 1745).
 *
 * <p>Every call is signed as an operator (decision 1740): with {@code
 * PROTOMOLT_OPERATOR_ACCESS_KEY_ID}/{@code _SECRET_ACCESS_KEY} when set, else, for a gateway on
 * loopback, the local operator {@code up} registers, else the default AWS credential chain. The
 * token is signed for the gateway {@code PROTOMOLT_GATEWAY_AUDIENCE} names, by default on loopback
 * the local stack's (decision 1511).
 */
final class GatewayOption {

  static final String DEFAULT = "127.0.0.1:" + GatewayConfig.DEFAULT_PORT;

  @Option(
      names = "--gateway",
      paramLabel = "HOST:PORT",
      defaultValue = "${env:PROTOMOLT_GATEWAY:-" + DEFAULT + "}",
      description =
          "The running platform's gateway (default: $PROTOMOLT_GATEWAY or " + DEFAULT + ").")
  String address;

  @Option(
      names = "--gateway-ca",
      paramLabel = "FILE",
      defaultValue = "${env:" + GatewayTransport.CA_VARIABLE + "}",
      description =
          "PEM CA certificate to trust for the gateway's TLS endpoint (default:"
              + " $PROTOMOLT_GATEWAY_CA; without it a gateway on loopback is called in plaintext,"
              + " any other over TLS with the JVM's trusted roots).")
  Path ca;

  ManagedChannel open() {
    int colon = address.lastIndexOf(':');
    int port;
    try {
      port = colon < 1 ? -1 : Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw CommandFailure.refused(
          "--gateway: must be HOST:PORT with a port between 1 and 65535,"
              + " got '"
              + address
              + "'");
    }
    String host = address.substring(0, colon);
    ChannelCredentials transport;
    try {
      transport = GatewayTransport.forGateway(host, ca, "--gateway-ca");
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      throw CommandFailure.refused(e.getMessage());
    }
    return NettyChannelBuilder.forAddress(host, port, transport)
        .intercept(credentials(host, System.getenv()).interceptor())
        .build();
  }

  /** Who the CLI signs as when calling a gateway on {@code host}. */
  static GatewayCallCredentials credentials(String host, Map<String, String> env) {
    boolean local = GatewayTransport.isLoopback(host);
    URI sts;
    String region;
    if (env.getOrDefault(GatewayCallCredentials.STS_ENDPOINT_VARIABLE, "").isBlank() && local) {
      // The local cloud's STS shares the port of its AWS API (Lambda's), fixed by the settings.
      LocalCloudSettings settings = LocalCloudSettings.fromSystemProperties();
      int apiPort =
          settings.lambdaPort() == 0
              ? LocalCloudSettings.DEFAULT_LAMBDA_PORT
              : settings.lambdaPort();
      sts = URI.create("http://127.0.0.1:" + apiPort);
      region = settings.region();
    } else {
      sts = GatewayCallCredentials.stsEndpoint(env);
      region = GatewayCallCredentials.region(env);
    }
    String audience;
    try {
      audience =
          CallerToken.requireAudience(
              CallerToken.AUDIENCE_VARIABLE,
              env.getOrDefault(
                  CallerToken.AUDIENCE_VARIABLE, local ? LocalPrincipals.AUDIENCE : ""));
    } catch (IllegalArgumentException e) {
      throw CommandFailure.refused(
          e.getMessage()
              + "; the stack's GatewayAudience output names it (a gateway on loopback defaults to"
              + " the local stack's)");
    }
    String key = env.getOrDefault(LocalPrincipals.OPERATOR_KEY_VARIABLE, "");
    String secret = env.getOrDefault(LocalPrincipals.OPERATOR_SECRET_VARIABLE, "");
    if (!key.isBlank() && !secret.isBlank()) {
      return LocalPrincipals.signed(key.strip(), secret.strip(), sts, region, audience);
    }
    if (local) {
      return LocalPrincipals.operator(sts, region, audience);
    }
    // Not on loopback, the audience above came from the environment, as the SDK reads it.
    return GatewayCallCredentials.fromEnvironment(env);
  }

  /**
   * Runs one call, turning the gRPC status into a message that says what to do: an unreachable
   * gateway means {@code up} is not running there.
   */
  <T> T call(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      String detail =
          e.getStatus().getDescription() == null ? code.name() : e.getStatus().getDescription();
      if (ca == null
          && GatewayTransport.isLoopback(
              address.substring(0, Math.max(0, address.lastIndexOf(':'))))
          && (code == Status.Code.UNAVAILABLE
              || (code == Status.Code.INTERNAL && detail.startsWith("http2 exception")))) {
        // A plaintext dial of the local platform's TLS front: its TLS alert reads as a broken or
        // closed HTTP/2 connection, so say which setting is missing (decision 1745).
        throw new CommandFailure(
            CommandFailure.UNREACHABLE,
            "no local cloud on "
                + address
                + " answered in plaintext ("
                + detail
                + ") — if `protomolt up` runs there it serves TLS: pass --gateway-ca"
                + " <data>/tls/gateway-ca.pem or set PROTOMOLT_GATEWAY_CA (eval $(protomolt env));"
                + " otherwise start it with `protomolt up --data DIR`");
      }
      throw switch (code) {
        case UNAVAILABLE ->
            new CommandFailure(
                CommandFailure.UNREACHABLE,
                "no local cloud on "
                    + address
                    + " ("
                    + detail
                    + ") — start it with `protomolt up --data DIR`, or point"
                    + " --gateway at the one running");
        case DEADLINE_EXCEEDED ->
            new CommandFailure(
                CommandFailure.UNREACHABLE,
                what
                    + ": the platform on "
                    + address
                    + " did not answer in time — is `protomolt up` still"
                    + " starting? Try again in a moment");
        case NOT_FOUND -> CommandFailure.refused(what + ": not found — " + detail);
        case UNAUTHENTICATED ->
            CommandFailure.refused(
                what
                    + ": the gateway did not accept this caller's credentials — "
                    + detail
                    + " (set PROTOMOLT_OPERATOR_ACCESS_KEY_ID and _SECRET_ACCESS_KEY, or AWS"
                    + " credentials for a role the gateway lists as an operator)");
        case PERMISSION_DENIED -> CommandFailure.refused(what + ": not allowed — " + detail);
        case INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS, ABORTED ->
            CommandFailure.refused(what + ": refused — " + detail);
        default ->
            CommandFailure.refused(what + ": the platform answered " + code + " — " + detail);
      };
    }
  }
}
