package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.config.InvalidConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/** What the app says when it is run wrong; these fail before any construct is built. */
class ProtoMoltAppTest {

  @Test
  void withoutAnEnvironmentTheAppListsTheKnownOnes() {
    assertThatThrownBy(() -> ProtoMoltApp.build(new App(), TestEnvironments.BASE_DIR))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("-c env=<name>, one of [dev, prod, staging]");
  }

  @Test
  void withoutBuiltArtifactsTheAppSaysHowToProceed() {
    // The real zip and image do not exist in this repository yet (issues 8 and 9).
    App app = new App(AppProps.builder().context(Map.of("env", "prod")).build());
    assertThatThrownBy(() -> ProtoMoltApp.build(app, TestEnvironments.BASE_DIR))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("artifacts.lambdaCode: no file or directory at")
        .hasMessageContaining("functions/lambda/target/function.zip")
        .hasMessageContaining("artifacts.gatewayImage");
  }
}
