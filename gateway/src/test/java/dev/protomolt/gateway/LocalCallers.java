package dev.protomolt.gateway;

import dev.protomolt.identity.CallerToken;
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
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

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

  /** The gateway name the test gateways are configured with and these callers sign for. */
  public static final String AUDIENCE = "protomolt-test-gateway";

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
        "PROTOMOLT_GATEWAY_AUDIENCE",
        AUDIENCE,
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
    return signedFor(accessKeyId, secret, AUDIENCE);
  }

  /** A registered name's credentials signing for {@code audience}: a token for another gateway. */
  public GatewayCallCredentials credentialsFor(String name, String audience) {
    return signedFor(name + "-key", name + "-secret", audience);
  }

  private GatewayCallCredentials signedFor(String accessKeyId, String secret, String audience) {
    return new GatewayCallCredentials(
        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secret)),
        endpoint(),
        "us-east-1",
        audience,
        Clock.systemUTC());
  }

  /**
   * A registered name's token presigned as before tokens named a gateway: {@code
   * GetCallerIdentity} signing the host header only, valid for 15 minutes.
   */
  public String tokenWithoutAudience(String name) {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.GET)
            .uri(endpoint().resolve("/"))
            .putRawQueryParameter("Action", "GetCallerIdentity")
            .putRawQueryParameter("Version", "2011-06-15")
            .build();
    URI presigned =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(AwsBasicCredentials.create(name + "-key", name + "-secret"))
                        .request(request)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                        .putProperty(
                            AwsV4HttpSigner.AUTH_LOCATION,
                            AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(
                            AwsV4HttpSigner.EXPIRATION_DURATION,
                            GatewayCallCredentials.TOKEN_LIFETIME))
            .request()
            .getUri();
    return CallerToken.encode(presigned);
  }

  @Override
  public void close() {
    sts.close();
  }
}
