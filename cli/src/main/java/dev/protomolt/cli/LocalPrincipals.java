package dev.protomolt.cli;

import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.names.PlatformVariable;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The principals {@code up} creates in the local cloud's IAM for the gateway's callers: one role
 * per sample module, allowed to serve only that module, and one operator role allowed every
 * account, which the CLI signs with. Like the local cloud's own key pair these are fixed, known
 * values, not secrets: the local cloud listens on loopback only, and a gateway in AWS verifies
 * callers with AWS's STS, which has never heard of them (decision 1742).
 */
final class LocalPrincipals {

  static final String OPERATOR_ACCESS_KEY_ID = "protomolt-local-operator";
  static final String OPERATOR_SECRET_ACCESS_KEY = "protomolt-local-operator-secret";
  static final String OPERATOR_ROLE =
      "arn:aws:iam::" + PrincipalRegistry.LOCAL_ACCOUNT_ID + ":role/protomolt-local-operator";

  /**
   * The gateway name the local stack gives its task ({@code PROTOMOLT_GATEWAY_AUDIENCE}, the
   * environment's gateway), which local callers sign their tokens for (decision 1511).
   */
  static final String AUDIENCE = LocalTemplate.STACK_NAME + "-gateway";

  /** The variables {@code protomolt env} prints for the operator's key pair. */
  static final String OPERATOR_KEY_VARIABLE = "PROTOMOLT_OPERATOR_ACCESS_KEY_ID";

  static final String OPERATOR_SECRET_VARIABLE = "PROTOMOLT_OPERATOR_SECRET_ACCESS_KEY";

  private LocalPrincipals() {}

  static String moduleAccessKeyId(String moduleId) {
    return "protomolt-local-module-" + moduleId;
  }

  static String moduleSecret(String moduleId) {
    return "protomolt-local-module-" + moduleId + "-secret";
  }

  static String moduleRole(String moduleId) {
    return "arn:aws:iam::"
        + PrincipalRegistry.LOCAL_ACCOUNT_ID
        + ":role/protomolt-local-module-"
        + moduleId;
  }

  /** Registers the operator and one principal per module; they hold no AWS permissions. */
  static void register(PrincipalRegistry iam, List<String> modules) {
    iam.register(
        OPERATOR_ACCESS_KEY_ID,
        OPERATOR_SECRET_ACCESS_KEY,
        new IamPrincipal("operator", OPERATOR_ROLE, List.of()));
    for (String module : modules) {
      iam.register(
          moduleAccessKeyId(module),
          moduleSecret(module),
          new IamPrincipal(module, moduleRole(module), List.of()));
    }
  }

  /** The gateway's settings naming them, and where it verifies their tokens. */
  static Map<String, String> gatewaySettings(URI sts, List<String> modules) {
    StringJoiner modulePrincipals = new StringJoiner(";");
    modules.forEach(m -> modulePrincipals.add(m + "=" + moduleRole(m)));
    Map<String, String> v = new LinkedHashMap<>();
    v.put(PlatformVariable.STS_ENDPOINT.key(), sts.toString());
    v.put(PlatformVariable.GATEWAY_MODULE_PRINCIPALS.key(), modulePrincipals.toString());
    v.put(PlatformVariable.GATEWAY_OPERATOR_PRINCIPALS.key(), OPERATOR_ROLE + "=*");
    return v;
  }

  static GatewayCallCredentials module(String moduleId, URI sts, String region) {
    return signed(moduleAccessKeyId(moduleId), moduleSecret(moduleId), sts, region, AUDIENCE);
  }

  static GatewayCallCredentials operator(URI sts, String region) {
    return operator(sts, region, AUDIENCE);
  }

  static GatewayCallCredentials operator(URI sts, String region, String audience) {
    return signed(OPERATOR_ACCESS_KEY_ID, OPERATOR_SECRET_ACCESS_KEY, sts, region, audience);
  }

  static GatewayCallCredentials signed(
      String key, String secret, URI sts, String region, String audience) {
    return new GatewayCallCredentials(
        StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)),
        sts,
        region,
        audience,
        Clock.systemUTC());
  }
}
