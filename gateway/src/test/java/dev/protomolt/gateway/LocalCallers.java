package dev.protomolt.gateway;

import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import dev.protomolt.localstack.sts.LocalSts;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The local STS on a loopback port with a few principals in its IAM registry, and the call
 * credentials each of them signs gateway calls with: what a deployed gateway's callers are, in a
 * test.
 */
public final class LocalCallers implements AutoCloseable {

  static final String PARSER_ROLE = "arn:aws:iam::000000000000:role/test-module-parser";
  static final String ACME_OPERATOR_ROLE = "arn:aws:iam::000000000000:role/test-operator-acme";
  static final String BETA_OPERATOR_ROLE = "arn:aws:iam::000000000000:role/test-operator-beta";
  static final String PLATFORM_OPERATOR_ROLE = "arn:aws:iam::000000000000:role/test-operator-all";

  private final PrincipalRegistry iam = new PrincipalRegistry();
  private final LambdaApiServer sts;

  public LocalCallers() throws IOException {
    register("parser", PARSER_ROLE);
    register("acme-operator", ACME_OPERATOR_ROLE);
    register("beta-operator", BETA_OPERATOR_ROLE);
    register("platform-operator", PLATFORM_OPERATOR_ROLE);
    this.sts =
        LambdaApiServer.start(0, new FunctionRegistry(), new LocalSts(iam, Clock.systemUTC()));
  }

  private void register(String name, String role) {
    iam.register(name + "-key", name + "-secret", new IamPrincipal(name, role, List.of()));
  }

  public URI endpoint() {
    return sts.endpoint();
  }

  /** The gateway settings naming these principals: parser serves parser, operators by account. */
  public Map<String, String> gatewaySettings() {
    return Map.of(
        "AWS_ENDPOINT_URL_STS",
        endpoint().toString(),
        "PROTOMOLT_GATEWAY_MODULE_PRINCIPALS",
        "parser=" + PARSER_ROLE,
        "PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS",
        ACME_OPERATOR_ROLE
            + "=acme;"
            + BETA_OPERATOR_ROLE
            + "=beta;"
            + PLATFORM_OPERATOR_ROLE
            + "="
            + "*");
  }

  /** Credentials of one of the registered names: parser, acme-operator, beta-operator, ... */
  public GatewayCallCredentials credentials(String name) {
    return signedWith(name + "-key", name + "-secret");
  }

  GatewayCallCredentials signedWith(String accessKeyId, String secret) {
    return new GatewayCallCredentials(
        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secret)),
        endpoint(),
        "us-east-1",
        Clock.systemUTC());
  }

  @Override
  public void close() {
    sts.close();
  }
}
