package dev.protomolt.cdk.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.TestEnvironments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeployArtifactsTest {

  @TempDir Path base;

  /** A built console site under the temporary base, as the console module writes it. */
  @org.junit.jupiter.api.BeforeEach
  void site() throws IOException {
    Files.createDirectories(base.resolve("site"));
    Files.writeString(base.resolve("site/index.html"), "<!doctype html>\n");
  }

  @Test
  void aZipAndABuildContextResolve() throws IOException {
    Files.write(base.resolve("function.zip"), new byte[] {'P', 'K', 3, 4});
    Files.createDirectories(base.resolve("gateway"));
    Files.writeString(base.resolve("gateway/Dockerfile"), "FROM scratch\n");
    DeployArtifacts a =
        DeployArtifacts.resolve(
            new EnvironmentConfig.Artifacts("function.zip", "gateway", "site"),
            base,
            null,
            null,
            null);
    assertThat(a.lambdaCode()).isEqualTo(base.resolve("function.zip"));
    assertThat(a.consoleSite()).isEqualTo(base.resolve("site"));
    assertThat(a.gatewayImage())
        .isEqualTo(new DeployArtifacts.ImageDirectory(base.resolve("gateway")));
  }

  @Test
  void everyCommittedConfigNamesWhatThePackagePhaseWrites() throws IOException {
    // A tree laid out like the repository after ./mvnw package, with infra/cdk as the base.
    Path cdk = Files.createDirectories(base.resolve("infra/cdk"));
    Path zip =
        Files.createDirectories(base.resolve("functions/lambda/target")).resolve("function.zip");
    Files.write(zip, new byte[] {'P', 'K', 3, 4});
    Path image = Files.createDirectories(base.resolve("gateway/target/image"));
    Files.writeString(image.resolve("Dockerfile"), "FROM eclipse-temurin:25-jre-noble\n");
    Path site = Files.createDirectories(base.resolve("console/target/classes/protomolt-console"));
    Files.writeString(site.resolve("index.html"), "<!doctype html>\n");
    for (String env : List.of("dev", "staging", "prod")) {
      DeployArtifacts a =
          DeployArtifacts.resolve(TestEnvironments.config(env).artifacts(), cdk, null, null, null);
      assertThat(a.lambdaCode()).as(env).isEqualTo(zip);
      assertThat(a.consoleSite()).as(env).isEqualTo(site);
      assertThat(a.gatewayImage()).as(env).isEqualTo(new DeployArtifacts.ImageDirectory(image));
    }
    // The gateway module's Dockerfile template is what package copies there.
    assertThat(
            TestEnvironments.BASE_DIR
                .resolve("../../gateway/src/main/docker/Dockerfile")
                .normalize())
        .content()
        .contains("dev.protomolt.gateway.GatewayMain");
  }

  @Test
  void anEcrUriIsPinnedByTagOrDigest() throws IOException {
    Files.createDirectories(base.resolve("code"));
    DeployArtifacts byTag =
        DeployArtifacts.resolve(
            new EnvironmentConfig.Artifacts(
                "code",
                "123456789012.dkr.ecr.eu-west-1.amazonaws.com/protomolt/gateway:2.3.1",
                "site"),
            base,
            null,
            null,
            null);
    assertThat(byTag.gatewayImage())
        .isEqualTo(
            new DeployArtifacts.EcrImage(
                "123456789012", "eu-west-1", "protomolt/gateway", "2.3.1"));
    String digest = "sha256:" + "a".repeat(64);
    DeployArtifacts byDigest =
        DeployArtifacts.resolve(
            new EnvironmentConfig.Artifacts(
                "code", "123456789012.dkr.ecr.eu-west-1.amazonaws.com/gw@" + digest, "site"),
            base,
            null,
            null,
            null);
    assertThat(((DeployArtifacts.EcrImage) byDigest.gatewayImage()).byDigest()).isTrue();
  }

  @Test
  void missingArtifactsAreBothNamedWithTheWayOut() {
    assertThatThrownBy(
            () ->
                DeployArtifacts.resolve(
                    new EnvironmentConfig.Artifacts(
                        "target/function.zip", "../gateway", "console/dist"),
                    base,
                    null,
                    null,
                    null))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> {
              assertThat(e.problems())
                  .extracting(ConfigProblem::field)
                  .containsExactly(
                      "artifacts.lambdaCode", "artifacts.gatewayImage", "artifacts.consoleSite");
              assertThat(e.getMessage())
                  .contains("functions/lambda/target/function.zip")
                  .contains("-c lambdaCode=<path>")
                  .contains("-c consoleSite=<dir>");
            });
  }

  @Test
  void overridesWinAndAreNamedAsContext() throws IOException {
    Files.writeString(base.resolve("function.jar"), "not a zip");
    Files.createDirectories(base.resolve("nodocker"));
    assertThatThrownBy(
            () ->
                DeployArtifacts.resolve(
                    new EnvironmentConfig.Artifacts("whatever", "whatever", "site"),
                    base,
                    "function.jar",
                    "nodocker",
                    "nodocker"))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> {
              assertThat(e.problems())
                  .extracting(ConfigProblem::field)
                  .containsExactly(
                      "context lambdaCode", "context gatewayImage", "context consoleSite");
              assertThat(e.getMessage())
                  .contains("must be a .zip file or a directory")
                  .contains("has no Dockerfile")
                  .contains("no index.html in");
            });
  }

  @Test
  void aMalformedEcrUriIsNotMistakenForADirectory() throws IOException {
    Files.createDirectories(base.resolve("code"));
    assertThatThrownBy(
            () ->
                DeployArtifacts.resolve(
                    new EnvironmentConfig.Artifacts(
                        "code", "123456789012.dkr.ecr.eu-west-1.amazonaws.com/gw", "site"),
                    base,
                    null,
                    null,
                    null))
        .hasMessageContaining("artifacts.gatewayImage: looks like an ECR URI");
  }
}
