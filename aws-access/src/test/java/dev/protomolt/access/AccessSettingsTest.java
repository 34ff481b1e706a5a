package dev.protomolt.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessSettingsTest {

  @Test
  void refusalsNameTheVariableTheRuleAndWhoNeedsIt() {
    AccessSettings none = new AccessSettings(Map.of(), "the gateway");
    assertThatThrownBy(none::brokers)
        .hasMessage(
            "PROTOMOLT_KAFKA_BOOTSTRAP or PROTOMOLT_KAFKA_CLUSTER_ARN:"
                + " one is required by the gateway but neither is set");
    assertThatThrownBy(none::database)
        .hasMessage(
            "PROTOMOLT_JDBC_URL or PROTOMOLT_DB_HOST: one is required"
                + " by the gateway but neither is set");
    assertThatThrownBy(
            new AccessSettings(
                    Map.of(
                        "PROTOMOLT_DB_HOST",
                        "proxy",
                        "PROTOMOLT_DB_NAME",
                        "p",
                        "PROTOMOLT_DB_USER",
                        "u",
                        "PROTOMOLT_DB_PORT",
                        "0"),
                    "the gateway")
                ::database)
        .hasMessage("PROTOMOLT_DB_PORT: must be between 1 and 65535, got 0");
    assertThatThrownBy(
            new AccessSettings(
                    Map.of(
                        "PROTOMOLT_DB_HOST",
                        "proxy",
                        "PROTOMOLT_DB_NAME",
                        "p",
                        "PROTOMOLT_DB_USER",
                        "u",
                        "PROTOMOLT_DB_PORT",
                        "pg"),
                    "the gateway")
                ::database)
        .hasMessage("PROTOMOLT_DB_PORT: must be a whole number, got \"pg\"");
    assertThatThrownBy(
            new AccessSettings(Map.of("PROTOMOLT_JDBC_URL", "postgres://db"), "x")::database)
        .hasMessage("PROTOMOLT_JDBC_URL: must be a jdbc:postgresql: URL, got \"postgres://db\"");
  }

  @Test
  void theProxyUrlRequiresTls() {
    DatabaseAccess access =
        new AccessSettings(
                Map.of(
                    "PROTOMOLT_DB_HOST",
                    "proxy.example",
                    "PROTOMOLT_DB_PORT",
                    "6432",
                    "PROTOMOLT_DB_NAME",
                    "protomolt",
                    "PROTOMOLT_DB_USER",
                    "gateway",
                    "AWS_REGION",
                    "eu-west-1"),
                "the gateway")
            .database();
    assertThat(access)
        .isEqualTo(
            new DatabaseAccess.RdsIam("proxy.example", 6432, "protomolt", "gateway", "eu-west-1"));
    assertThat(((DatabaseAccess.RdsIam) access).jdbcUrl())
        .isEqualTo("jdbc:postgresql://proxy.example:6432/protomolt?sslmode=require");
  }
}
