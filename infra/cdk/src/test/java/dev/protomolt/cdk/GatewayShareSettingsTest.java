package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.cdk.config.EnvironmentConfig.AccountShare;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayShareSettingsTest {

  @Test
  void sharesAreWrittenSortedWithOnlyTheSettingsGiven() {
    Map<String, AccountShare> shares = new LinkedHashMap<>();
    shares.put("globex", new AccountShare(null, 10));
    shares.put("acme", new AccountShare(4, 50));
    shares.put("*", new AccountShare(2, null));

    assertThat(GatewayShareSettings.accountShares(shares))
        .isEqualTo("*=weight:2;acme=weight:4,rate:50;globex=rate:10");
    assertThat(GatewayShareSettings.accountShares(null)).isEmpty();
  }
}
