package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
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
  void callersAreVerifiedAtTheRegionalStsUnlessOverriddenAndNobodyIsAllowedByDefault() {
    Map<String, String> m = minimal();
    m.put("AWS_REGION", "eu-west-1");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.stsEndpoint()).isEqualTo(URI.create("https://sts.eu-west-1.amazonaws.com"));
    assertThat(c.principals().summary())
        .isEqualTo("0 module principal(s), 0 operator principal(s)");

    m.put("AWS_ENDPOINT_URL_STS", "http://127.0.0.1:18160");
    m.put("PROTOMOLT_GATEWAY_MODULE_PRINCIPALS", "parser=arn:aws:iam::123456789012:role/parser");
    m.put("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS", "arn:aws:iam::123456789012:role/ops=*");
    c = GatewayConfig.from(m);
    assertThat(c.stsEndpoint()).isEqualTo(URI.create("http://127.0.0.1:18160"));
    assertThat(c.principals().summary())
        .isEqualTo("1 module principal(s), 1 operator principal(s)");

    m.put("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS", "ops=*");
    assertThatThrownBy(() -> GatewayConfig.from(m))
        .hasMessageContaining("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS: 'ops' is not an IAM role");
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
    Map<String, String> noModules = minimal();
    noModules.remove("PROTOMOLT_GATEWAY_MODULES");
    assertThatThrownBy(() -> GatewayConfig.from(noModules))
        .hasMessage("PROTOMOLT_GATEWAY_MODULES: required");
    Map<String, String> noBrokers = minimal();
    noBrokers.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    assertThatThrownBy(() -> GatewayConfig.from(noBrokers))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "PROTOMOLT_KAFKA_BOOTSTRAP or PROTOMOLT_KAFKA_CLUSTER_ARN: one is required by the"
                + " gateway but neither is set");
    Map<String, String> noDatabase = minimal();
    noDatabase.remove("PROTOMOLT_JDBC_URL");
    assertThatThrownBy(() -> GatewayConfig.from(noDatabase))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "PROTOMOLT_JDBC_URL or PROTOMOLT_DB_HOST: one is required by the gateway but neither"
                + " is set");
    Map<String, String> badArn = minimal();
    badArn.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    badArn.put("PROTOMOLT_KAFKA_CLUSTER_ARN", "protomolt-dev");
    assertThatThrownBy(() -> GatewayConfig.from(badArn))
        .hasMessage(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: must be"
                + " an MSK cluster ARN (arn:...:kafka:...), got \"protomolt-dev\"");
    Map<String, String> halfProxy = minimal();
    halfProxy.remove("PROTOMOLT_JDBC_URL");
    halfProxy.put("PROTOMOLT_DB_HOST", "proxy.example");
    assertThatThrownBy(() -> GatewayConfig.from(halfProxy))
        .hasMessage("PROTOMOLT_DB_NAME: required by the gateway but not set");
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
        .hasMessageStartingWith("PROTOMOLT_GATEWAY_MODULES: each entry")
        .hasMessageContaining("bad topic");
    Map<String, String> sfn = minimal();
    sfn.put("PROTOMOLT_SFN_ENDPOINT", "localhost");
    assertThatThrownBy(() -> GatewayConfig.from(sfn))
        .hasMessageStartingWith("PROTOMOLT_SFN_ENDPOINT: must be an absolute URL");
  }

  @Test
  void theStacksIamSettingsNameTheClusterAndTheProxy() {
    Map<String, String> m = minimal();
    m.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    m.remove("PROTOMOLT_JDBC_URL");
    m.put("AWS_REGION", "eu-west-1");
    m.put(
        "PROTOMOLT_KAFKA_CLUSTER_ARN",
        "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc");
    m.put("PROTOMOLT_DB_HOST", "proxy.example.eu-west-1.rds.amazonaws.com");
    m.put("PROTOMOLT_DB_NAME", "protomolt");
    m.put("PROTOMOLT_DB_USER", "protomolt");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.brokers())
        .isEqualTo(
            new BrokerAccess.MskIam(
                "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc"));
    assertThat(c.brokers().connection()).containsEntry("sasl.mechanism", "AWS_MSK_IAM");
    assertThat(c.database())
        .isEqualTo(
            new DatabaseAccess.RdsIam(
                "proxy.example.eu-west-1.rds.amazonaws.com",
                5432,
                "protomolt",
                "protomolt",
                "eu-west-1"));
  }

  @Test
  void anExplicitBootstrapAndJdbcUrlWinOverTheStacksSettings() {
    Map<String, String> m = minimal();
    m.put(
        "PROTOMOLT_KAFKA_CLUSTER_ARN",
        "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc");
    m.put("PROTOMOLT_DB_HOST", "proxy.example");
    m.put("PROTOMOLT_JDBC_USER", "protomolt");
    m.put("PROTOMOLT_JDBC_PASSWORD", "secret");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.brokers()).isEqualTo(new BrokerAccess.Bootstrap("127.0.0.1:9092"));
    assertThat(c.brokers().connection()).isEmpty();
    assertThat(c.database())
        .isEqualTo(
            new DatabaseAccess.Password(
                "jdbc:postgresql://127.0.0.1:5432/protomolt", "protomolt", "secret"));
  }
}
