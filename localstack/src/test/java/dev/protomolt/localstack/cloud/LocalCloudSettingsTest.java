package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.localstack.s3.S3NotificationRule;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad settings fail with the field and the rule, before anything starts. */
class LocalCloudSettingsTest {

  @Test
  void defaultsAreTheDocumentedPortsUnderTheGivenFolder() {
    LocalCloudSettings settings = LocalCloudSettings.defaults(Path.of("data"));

    assertThat(
            List.of(
                settings.s3Port(),
                settings.postgresPort(),
                settings.kafkaPort(),
                settings.kafkaControllerPort(),
                settings.dynamoDbPort(),
                settings.stepFunctionsPort(),
                settings.lambdaPort()))
        .containsExactly(18110, 18120, 18130, 18131, 18140, 18150, 18160);
    assertThat(settings.dataDir()).isEqualTo(Path.of("data"));
  }

  @Test
  void anInvalidBucketNameIsRefusedWithTheRule() {
    assertThatThrownBy(
            () -> LocalCloudSettings.ephemeral(Path.of("d")).withBuckets(List.of("Upper_Case")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("buckets: 'Upper_Case' is not a valid S3 bucket name")
        .hasMessageContaining("lower-case letters, digits, dots and hyphens");
  }

  @Test
  void aPortSettingThatIsNotANumberNamesTheSetting() {
    String previous = System.getProperty(LocalCloudSettings.KAFKA_PORT_SETTING);
    System.setProperty(LocalCloudSettings.KAFKA_PORT_SETTING, "ninety");
    try {
      assertThatThrownBy(LocalCloudSettings::fromSystemProperties)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("protomolt.local.kafka.port must be a port number, was 'ninety'");
    } finally {
      if (previous == null) {
        System.clearProperty(LocalCloudSettings.KAFKA_PORT_SETTING);
      } else {
        System.setProperty(LocalCloudSettings.KAFKA_PORT_SETTING, previous);
      }
    }
  }

  @Test
  void aPortSettingOverridesItsDefault() {
    System.setProperty(LocalCloudSettings.DYNAMODB_PORT_SETTING, "19999");
    try {
      assertThat(LocalCloudSettings.fromSystemProperties().dynamoDbPort()).isEqualTo(19999);
    } finally {
      System.clearProperty(LocalCloudSettings.DYNAMODB_PORT_SETTING);
    }
  }

  @Test
  void eventSourceMappingsAndRulesRefuseWhatAwsRefuses() {
    assertThatThrownBy(() -> new MskEventSourceMapping("fn", List.of("t"), null, 0))
        .hasMessage("batchSize must be between 1 and 10000, was 0");
    assertThatThrownBy(() -> new MskEventSourceMapping("fn", List.of(), null, 10))
        .hasMessage("topics must name at least one topic, none blank");
    assertThatThrownBy(() -> new MskEventSourceMapping(" ", List.of("t"), null, 10))
        .hasMessage("functionName must not be blank");
    assertThatThrownBy(() -> new S3NotificationRule("", null, null, "fn"))
        .hasMessage("bucket must not be blank");
    assertThat(MskEventSourceMapping.of("purge", "a", "b").consumerGroupId())
        .isEqualTo("protomolt-local-purge-a+b");
  }
}
