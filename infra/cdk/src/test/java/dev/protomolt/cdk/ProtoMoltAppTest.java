package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.config.InvalidConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/** What the app says when it is run wrong; these fail before any construct is built. */
class ProtoMoltAppTest {

  @Test
  void withoutAnEnvironmentTheAppListsTheKnownOnes() {
    assertThatThrownBy(() -> ProtoMoltApp.build(new App(), TestEnvironments.BASE_DIR))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("-c env=<name>, one of [dev, local, prod, staging]");
  }

  @Test
  void withoutBuiltArtifactsTheAppSaysHowToProceed(@TempDir Path base) throws IOException {
    // A copy of the prod configuration in an empty tree, so no build output can be found there.
    Files.createDirectories(base.resolve("config"));
    Files.copy(
        TestEnvironments.BASE_DIR.resolve("config/prod.json"), base.resolve("config/prod.json"));
    App app = new App(AppProps.builder().context(Map.of("env", "prod")).build());
    assertThatThrownBy(() -> ProtoMoltApp.build(app, base))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("artifacts.lambdaCode: no file or directory at")
        .hasMessageContaining("functions/lambda/target/function.zip")
        .hasMessageContaining("artifacts.gatewayImage")
        .hasMessageContaining("artifacts.consoleSite");
  }

  @Test
  void oneRunBuildsEveryEnvironmentNamedInTheContext() {
    App app =
        new App(
            AppProps.builder()
                .context(
                    Map.of(
                        "env",
                        "dev,prod",
                        "lambdaCode",
                        TestEnvironments.PLACEHOLDER_LAMBDA,
                        "gatewayImage",
                        TestEnvironments.PLACEHOLDER_GATEWAY,
                        "consoleSite",
                        TestEnvironments.PLACEHOLDER_CONSOLE))
                .build());
    assertThat(ProtoMoltApp.buildAll(app, TestEnvironments.BASE_DIR))
        .extracting(EnvironmentStack::getStackName)
        .containsExactly("protomolt-dev", "protomolt-prod");
  }

  @Test
  void anEmptyNameInTheEnvironmentListIsRefused() {
    App app = new App(AppProps.builder().context(Map.of("env", "dev,,prod")).build());
    assertThatThrownBy(() -> ProtoMoltApp.buildAll(app, TestEnvironments.BASE_DIR))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("env: must name environments separated by single commas")
        .hasMessageContaining("dev,,prod");
  }
}
