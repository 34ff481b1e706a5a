package dev.protomolt.cdk;

import dev.protomolt.cdk.config.EnvironmentConfig;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The gateway's account shares as the stack writes them from the configuration (decision 1658),
 * sorted so the template does not change when the configuration's order does.
 */
final class GatewayShareSettings {

  private GatewayShareSettings() {}

  /**
   * The account shares in the syntax the gateway's {@code AccountShares} parses ({@code
   * account=weight:N,rate:N;...}), sorted like the principals.
   */
  static String accountShares(Map<String, EnvironmentConfig.AccountShare> shares) {
    StringJoiner out = new StringJoiner(";");
    if (shares != null) {
      new TreeMap<>(shares)
          .forEach(
              (account, share) -> {
                StringJoiner settings = new StringJoiner(",");
                if (share.weight() != null) {
                  settings.add("weight:" + share.weight());
                }
                if (share.recordsPerSecond() != null) {
                  settings.add("rate:" + share.recordsPerSecond());
                }
                out.add(account + "=" + settings);
              });
    }
    return out.toString();
  }
}
