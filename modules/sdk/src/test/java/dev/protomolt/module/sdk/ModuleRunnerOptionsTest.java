package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ModuleRunnerOptionsTest {

  @Test
  void defaultsToTheLocalGatewayAndTheModulesConcurrency() {
    assertThat(ModuleRunner.Options.parse(new String[0], 4))
        .isEqualTo(new ModuleRunner.Options("127.0.0.1:18100", 4));
    assertThat(
            ModuleRunner.Options.parse(
                new String[] {
                  "--index", "data/x", "--gateway", "gw.local:9000", "--concurrency", "8"
                },
                4))
        .isEqualTo(new ModuleRunner.Options("gw.local:9000", 8));
  }

  @Test
  void badOptionsNameTheOptionAndTheRule() {
    assertThatThrownBy(() -> ModuleRunner.Options.parse(new String[] {"--gateway", "nowhere"}, 1))
        .hasMessage("--gateway must be HOST:PORT, got \"nowhere\"");
    assertThatThrownBy(() -> ModuleRunner.Options.parse(new String[] {"--concurrency", "many"}, 1))
        .hasMessage("--concurrency must be a whole number >= 1, got \"many\"");
    assertThatThrownBy(() -> ModuleRunner.Options.parse(new String[] {"--concurrency", "0"}, 1))
        .hasMessage("--concurrency must be a whole number >= 1, got 0");
    assertThatThrownBy(() -> ModuleRunner.Options.parse(new String[] {"--gateway"}, 1))
        .hasMessage("--gateway needs a value");
  }
}
