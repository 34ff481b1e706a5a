package dev.protomolt.cdk;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The gateway's principal settings as the stack writes them from the configuration, in the syntax
 * the gateway parses ({@code module=ARN|ARN;...} and {@code ARN=account|account;...}), sorted so
 * the template does not change when the configuration's order does.
 */
final class GatewayPrincipalSettings {

  private GatewayPrincipalSettings() {}

  static String modules(Map<String, List<String>> modulePrincipals) {
    return join(modulePrincipals);
  }

  static String operators(Map<String, List<String>> operatorPrincipals) {
    return join(operatorPrincipals);
  }

  private static String join(Map<String, List<String>> entries) {
    StringJoiner out = new StringJoiner(";");
    if (entries != null) {
      new TreeMap<>(entries)
          .forEach((key, values) -> out.add(key + "=" + String.join("|", values)));
    }
    return out.toString();
  }
}
