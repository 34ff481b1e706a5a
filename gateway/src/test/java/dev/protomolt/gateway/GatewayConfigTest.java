package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayConfigTest {

  static Map<String, String> minimal() {
    Map<String, String> m = new HashMap<>();
    m.put("PROTOMOLT_GATEWAY_MODULES", "parser, chunker");
    m.put("PROTOMOLT_KAFKA_BOOTSTRAP", "127.0.0.1:9092");
    m.put("PROTOMOLT_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/protomolt");
    return m;
  }

  @Test
  void defaultsFillEverythingButTheEndpoints() {
    GatewayConfig c = GatewayConfig.from(minimal());
    assertThat(c.port()).isEqualTo(18100);
    assertThat(c.modules()).containsExactly("parser", "chunker");
    assertThat(c.consumerGroup()).isEqualTo("protomolt-gateway");
    assertThat(c.partitionCapacity()).isEqualTo(256);
    assertThat(c.stepFunctionsEndpoint()).isEmpty();
    assertThat(c.objectStores()).containsOnlyKeys("platform");
    assertThat(c.objectStores().get("platform").endpoint()).isEmpty();
  }

  @Test
  void endpointsAndCredentialReferencesAreRead() {
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_GATEWAY_PORT", "0");
    m.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:8083");
    m.put("PROTOMOLT_S3_CREDENTIALS_REFS", "platform,byo-bucket");
    m.put("PROTOMOLT_S3_BYO_BUCKET_ENDPOINT", "http://127.0.0.1:9000");
    m.put("PROTOMOLT_S3_BYO_BUCKET_PATH_STYLE", "true");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.port()).isZero();
    assertThat(c.stepFunctionsEndpoint()).contains(URI.create("http://127.0.0.1:8083"));
    assertThat(c.objectStores().get("byo-bucket").endpoint())
        .contains(URI.create("http://127.0.0.1:9000"));
    assertThat(c.objectStores().get("byo-bucket").pathStyle()).isTrue();
  }

  @Test
  void everyRefusalNamesItsKeyAndRule() {
    for (String key : new String[] {"PROTOMOLT_GATEWAY_MODULES", "PROTOMOLT_KAFKA_BOOTSTRAP",
        "PROTOMOLT_JDBC_URL"}) {
      Map<String, String> m = minimal();
      m.remove(key);
      assertThatThrownBy(() -> GatewayConfig.from(m)).hasMessage(key + ": required");
    }
    Map<String, String> port = minimal();
    port.put("PROTOMOLT_GATEWAY_PORT", "70000");
    assertThatThrownBy(() -> GatewayConfig.from(port))
        .hasMessage("PROTOMOLT_GATEWAY_PORT: must be between 0 and 65535, got 70000");
    port.put("PROTOMOLT_GATEWAY_PORT", "eighty");
    assertThatThrownBy(() -> GatewayConfig.from(port))
        .hasMessageStartingWith("PROTOMOLT_GATEWAY_PORT: must be a whole number");
    Map<String, String> module = minimal();
    module.put("PROTOMOLT_GATEWAY_MODULES", "parser,bad topic");
    assertThatThrownBy(() -> GatewayConfig.from(module))
        .hasMessageStartingWith("PROTOMOLT_GATEWAY_MODULES: each entry").hasMessageContaining("bad topic");
    Map<String, String> sfn = minimal();
    sfn.put("PROTOMOLT_SFN_ENDPOINT", "localhost");
    assertThatThrownBy(() -> GatewayConfig.from(sfn))
        .hasMessageStartingWith("PROTOMOLT_SFN_ENDPOINT: must be an absolute URL");
  }
}
