package dev.protomolt.lambda.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionEnvironmentTest {

  @Test
  void everyRefusalNamesItsVariableAndRule() {
    FunctionEnvironment env = new FunctionEnvironment(Map.of(
        "PROTOMOLT_JDBC_URL", "postgres://db/protomolt",
        "PROTOMOLT_SFN_ENDPOINT", "localhost:18150",
        "PROTOMOLT_EXECUTION_ROLE_ARN", "protomolt-role",
        "PROTOMOLT_RETENTION_WINDOW", "30",
        "PROTOMOLT_RETENTION_BATCH", "0",
        "PROTOMOLT_RECONCILER_DELETE", "yes",
        "PROTOMOLT_S3_CREDENTIALS_REFS", "platform,,client"));

    assertThatThrownBy(env::jdbcUrl).hasMessage("PROTOMOLT_JDBC_URL: must be a jdbc:postgresql: URL, got"
        + " \"postgres://db/protomolt\"");
    assertThatThrownBy(env::stepFunctionsEndpoint).hasMessageStartingWith("PROTOMOLT_SFN_ENDPOINT:");
    assertThatThrownBy(env::executionRoleArn).hasMessage("PROTOMOLT_EXECUTION_ROLE_ARN: must be an ARN"
        + " (arn:...), got \"protomolt-role\"");
    assertThatThrownBy(env::retentionWindow).hasMessageStartingWith("PROTOMOLT_RETENTION_WINDOW: must be an"
        + " ISO-8601 duration");
    assertThatThrownBy(env::retentionBatch).hasMessage("PROTOMOLT_RETENTION_BATCH: must be between 1 and"
        + " 100000, got 0");
    assertThatThrownBy(env::reconcilerDeletes).hasMessage("PROTOMOLT_RECONCILER_DELETE: must be true or"
        + " false, got \"yes\"");
    assertThatThrownBy(env::objectStores).hasMessageStartingWith("PROTOMOLT_S3_CREDENTIALS_REFS: must list"
        + " non-blank credentials references");
    assertThatThrownBy(env::kafkaBootstrap).hasMessage("PROTOMOLT_KAFKA_BOOTSTRAP: required by this"
        + " function but not set");
  }

  @Test
  void unsetOptionalSettingsTakeTheirDefaults() {
    FunctionEnvironment env = new FunctionEnvironment(Map.of("PROTOMOLT_RETENTION_WINDOW", "P30D"));
    assertThat(env.retentionWindow()).contains(Duration.ofDays(30));
    assertThat(env.retentionBatch()).isEqualTo(500);
    assertThat(env.reconcilerDeletes()).isFalse();
    assertThat(env.stepFunctionsEndpoint()).isEmpty();
    assertThat(env.region()).isEqualTo("us-east-1");
    assertThat(env.objectStores()).containsOnlyKeys("platform");
  }
}
