package dev.protomolt.lambda.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
import dev.protomolt.engine.hop.KafkaEventBus;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionEnvironmentTest {

  @Test
  void everyRefusalNamesItsVariableAndRule() {
    FunctionEnvironment env =
        new FunctionEnvironment(
            Map.of(
                "PROTOMOLT_JDBC_URL", "postgres://db/protomolt",
                "PROTOMOLT_SFN_ENDPOINT", "localhost:18150",
                "PROTOMOLT_EXECUTION_ROLE_ARN", "protomolt-role",
                "PROTOMOLT_RETENTION_WINDOW", "30",
                "PROTOMOLT_RETENTION_BATCH", "0",
                "PROTOMOLT_RECONCILER_DELETE", "yes",
                "PROTOMOLT_S3_CREDENTIALS_REFS", "platform,,client"));

    assertThatThrownBy(env::database)
        .hasMessage(
            "PROTOMOLT_JDBC_URL: must be a jdbc:postgresql: URL, got"
                + " \"postgres://db/protomolt\"");
    assertThatThrownBy(env::stepFunctionsEndpoint)
        .hasMessageStartingWith("PROTOMOLT_SFN_ENDPOINT:");
    assertThatThrownBy(env::executionRoleArn)
        .hasMessage(
            "PROTOMOLT_EXECUTION_ROLE_ARN: must be an ARN" + " (arn:...), got \"protomolt-role\"");
    assertThatThrownBy(env::retentionWindow)
        .hasMessageStartingWith("PROTOMOLT_RETENTION_WINDOW: must be an" + " ISO-8601 duration");
    assertThatThrownBy(env::retentionBatch)
        .hasMessage("PROTOMOLT_RETENTION_BATCH: must be between 1 and" + " 100000, got 0");
    assertThatThrownBy(env::reconcilerDeletes)
        .hasMessage("PROTOMOLT_RECONCILER_DELETE: must be true or" + " false, got \"yes\"");
    assertThatThrownBy(env::objectStores)
        .hasMessageStartingWith(
            "PROTOMOLT_S3_CREDENTIALS_REFS: must list" + " non-blank credentials references");
    assertThatThrownBy(env::brokers)
        .hasMessage(
            "PROTOMOLT_KAFKA_BOOTSTRAP or PROTOMOLT_KAFKA_CLUSTER_ARN:"
                + " one is required by this function but neither is set");
    assertThatThrownBy(
            new FunctionEnvironment(Map.of("PROTOMOLT_KAFKA_CLUSTER_ARN", "protomolt-local"))
                ::brokers)
        .hasMessage(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: must be an MSK cluster ARN (arn:...:kafka:...), got"
                + " \"protomolt-local\"");
    assertThatThrownBy(new FunctionEnvironment(Map.of("PROTOMOLT_DB_HOST", "proxy"))::database)
        .hasMessage("PROTOMOLT_DB_NAME: required by this function but not set");
  }

  @Test
  void whatTheStackSetsSelectsRdsProxyWithIamAndMskWithIam() {
    FunctionEnvironment env =
        new FunctionEnvironment(
            Map.of(
                "AWS_REGION", "eu-west-1",
                "PROTOMOLT_DB_HOST", "protomolt-dev.proxy-abc.eu-west-1.rds.amazonaws.com",
                "PROTOMOLT_DB_NAME", "protomolt",
                "PROTOMOLT_DB_USER", "protomolt",
                "PROTOMOLT_KAFKA_CLUSTER_ARN",
                    "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc-1"));
    assertThat(env.database())
        .isEqualTo(
            new DatabaseAccess.RdsIam(
                "protomolt-dev.proxy-abc.eu-west-1.rds.amazonaws.com",
                5432,
                "protomolt",
                "protomolt",
                "eu-west-1"));
    assertThat(((DatabaseAccess.RdsIam) env.database()).jdbcUrl())
        .isEqualTo(
            "jdbc:postgresql://protomolt-dev.proxy-abc.eu-west-1.rds.amazonaws.com:5432/protomolt"
                + "?sslmode=require");
    assertThat(env.brokers())
        .isEqualTo(
            new BrokerAccess.MskIam(
                "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc-1"));
    assertThat(env.brokers().connection())
        .containsEntry("sasl.mechanism", "AWS_MSK_IAM")
        .containsEntry("security.protocol", "SASL_SSL");
  }

  @Test
  void explicitEndpointsWinOverTheStacksIamSettings() {
    FunctionEnvironment env =
        new FunctionEnvironment(
            Map.of(
                "PROTOMOLT_JDBC_URL", "jdbc:postgresql://127.0.0.1:18120/protomolt",
                "PROTOMOLT_DB_HOST", "proxy",
                "PROTOMOLT_KAFKA_BOOTSTRAP", "127.0.0.1:18130",
                "PROTOMOLT_KAFKA_CLUSTER_ARN", "arn:aws:kafka:us-east-1:1:cluster/x/y"));
    assertThat(env.database()).isInstanceOf(DatabaseAccess.Password.class);
    assertThat(env.brokers()).isEqualTo(new BrokerAccess.Bootstrap("127.0.0.1:18130"));
    assertThat(env.brokers().connection()).isEmpty();
  }

  @Test
  void theFunctionsOwnSdkVariablesReachItsClients() {
    // What Lambda (or the local cloud, per function) puts in the function's environment.
    FunctionEnvironment env =
        new FunctionEnvironment(
            Map.of(
                "AWS_ENDPOINT_URL", "http://127.0.0.1:4566",
                "AWS_ENDPOINT_URL_SFN", "http://127.0.0.1:18150",
                "AWS_ACCESS_KEY_ID", "AKIAINTAKEFUNCTION",
                "AWS_SECRET_ACCESS_KEY", "function-secret"));

    assertThat(env.stepFunctionsEndpoint()).contains(URI.create("http://127.0.0.1:18150"));
    var platform = env.objectStores().get("platform");
    assertThat(platform.endpoint()).contains(URI.create("http://127.0.0.1:4566"));
    assertThat(platform.pathStyle()).isTrue();
    assertThat(platform.credentials().resolveCredentials().accessKeyId())
        .isEqualTo("AKIAINTAKEFUNCTION");
    assertThat(env.aws().credentials().resolveCredentials().secretAccessKey())
        .isEqualTo("function-secret");
  }

  @Test
  void aReferencesOwnKeysWinOverTheFunctionsKeys() {
    FunctionEnvironment env =
        new FunctionEnvironment(
            Map.of(
                "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:4566",
                "AWS_ACCESS_KEY_ID", "AKIAINTAKEFUNCTION",
                "AWS_SECRET_ACCESS_KEY", "function-secret",
                "PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", "AKIADRIVE",
                "PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", "drive-secret"));
    var platform = env.objectStores().get("platform");
    assertThat(platform.endpoint()).contains(URI.create("http://127.0.0.1:4566"));
    assertThat(platform.credentials().resolveCredentials().accessKeyId()).isEqualTo("AKIADRIVE");
  }

  @Test
  void halfAKeyIsRefusedNamingTheMissingVariable() {
    FunctionEnvironment env = new FunctionEnvironment(Map.of("AWS_SECRET_ACCESS_KEY", "s"));
    assertThatThrownBy(env::objectStores)
        .hasMessageContaining(
            "AWS_ACCESS_KEY_ID: required when AWS_SECRET_ACCESS_KEY is set, but not set");
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

  @Test
  void executionTranscriptsAreOnUnlessSetToFalseAndAnythingElseIsRefused() {
    assertThat(new FunctionEnvironment(Map.of()).executionTranscripts()).isTrue();
    assertThat(
            new FunctionEnvironment(Map.of("PROTOMOLT_EXECUTION_TRANSCRIPTS", "false"))
                .executionTranscripts())
        .isFalse();
    assertThatThrownBy(
            new FunctionEnvironment(Map.of("PROTOMOLT_EXECUTION_TRANSCRIPTS", "off"))
                ::executionTranscripts)
        .hasMessage("PROTOMOLT_EXECUTION_TRANSCRIPTS: must be true or false, got \"off\"");
  }

  @Test
  void connectionSettingsCannotWeakenTheEnginesProducer() {
    assertThatThrownBy(
            () ->
                KafkaEventBus.durableProducer(
                    "127.0.0.1:1", Duration.ofSeconds(1), Map.of("acks", "1")))
        .hasMessage(
            "connection settings may not set acks: the engine's producer durability is fixed");
  }
}
