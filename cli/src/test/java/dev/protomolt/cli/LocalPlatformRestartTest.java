package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;

/**
 * A restart of the platform on the same data folder keeps what was provisioned and activated: the
 * datasource's owner, the account's intake notification and the active graph version, so an upload
 * after the restart runs through the graph activated before it with nothing re-applied.
 *
 * <p>It starts platforms of its own rather than the {@link SharedPlatform}: the behaviour under
 * test is a stop and a start on one data folder, which a shared platform must never go through.
 */
class LocalPlatformRestartTest {

  @TempDir Path data;

  @TempDir Path files;

  /**
   * Runs a command that calls {@code platform}'s gateway. The CLI signs its calls for the local
   * STS on the configured local AWS API port (decision 1742), as {@code env} derives every port
   * from the settings; this platform's ports are ephemeral, so the setting names its port.
   */
  private static CommandRun signingAt(LocalPlatform platform, String... args) {
    String key = LocalCloudSettings.LAMBDA_PORT_SETTING;
    String before = System.getProperty(key);
    System.setProperty(
        key, Integer.toString(platform.endpoints().lambda().orElseThrow().getPort()));
    try {
      return CommandRun.of(args);
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }

  @Test
  void bindingsAndActivationsSurviveARestart() throws Exception {
    try (LocalPlatform first = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      first.provisionAccount("acme", "docs");
      assertThat(first.applyAndActivate(DemoGraph.of("acme", "docs", LocalPlatform.CLUSTER)))
          .isEqualTo(1);
    }

    try (LocalPlatform second = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      assertThatThrownBy(() -> second.provisionAccount("rival", "docs"))
          .as("the datasource's owner was remembered")
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'docs' already belongs to account 'acme'");
      Path graph =
          Files.writeString(
              files.resolve("demo.json"),
              GraphFile.json(DemoGraph.of("acme", "docs", LocalPlatform.CLUSTER)));
      CommandRun validated =
          signingAt(
              second,
              "graph",
              "validate",
              graph.toString(),
              "--gateway",
              "127.0.0.1:" + second.gatewayPort(),
              "--gateway-ca",
              second.gatewayCa().toString());
      assertThat(validated.status()).as("%s", validated).isZero();
      CommandRun listed =
          signingAt(
              second,
              "graph",
              "list",
              "--gateway",
              "127.0.0.1:" + second.gatewayPort(),
              "--gateway-ca",
              second.gatewayCa().toString());
      assertThat(listed.out()).as("%s", listed).containsPattern("demo\\s+1\\s+yes");

      LocalCloudEndpoints ep = second.endpoints();
      try (S3Client s3 =
          S3Client.builder()
              .endpointOverride(ep.s3())
              .region(Region.of(ep.region()))
              .forcePathStyle(true)
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key("acme/docs/after-restart.txt"),
            RequestBody.fromString(
                "Tide tables\n\nSpring tides follow the full moon.\n", StandardCharsets.UTF_8));
      }
      LocalPlatform.Admission admitted =
          Eventually.value(
              "the upload admitted after the restart",
              () ->
                  second.admissions("acme").stream()
                      .filter(a -> !a.executionArn().isEmpty())
                      .findFirst());
      assertThat(admitted.graphVersion())
          .as("the version activated before the restart")
          .isEqualTo(1);
      DescribeExecutionResponse done =
          StepFunctionsExecutions.awaitClosed(second.stepFunctions(), admitted.executionArn());
      assertThat(new ObjectMapper().readTree(done.output()).path("disposition").asText())
          .as("%s %s", done.error(), done.cause())
          .isEqualTo("SINK_REACHED");
    }
  }
}
