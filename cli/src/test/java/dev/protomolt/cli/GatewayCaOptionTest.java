package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.lb.LocalCertificates;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --gateway-ca}: a CA file that is not there is refused naming the option before any
 * channel is opened, and {@code env} names the local CA for a gateway behind the TLS front.
 */
class GatewayCaOptionTest {

  @TempDir Path dir;

  static final class Holder {
    @CommandLine.Mixin GatewayOption gateway;
  }

  @Test
  void aMissingCaFileIsRefusedNamingTheOption() {
    Holder holder = new Holder();
    new CommandLine(holder)
        .parseArgs(
            "--gateway", "127.0.0.1:18443", "--gateway-ca", dir.resolve("none.pem").toString());
    assertThatThrownBy(holder.gateway::open)
        .isInstanceOf(CommandFailure.class)
        .hasMessageContaining("--gateway-ca")
        .hasMessageContaining("none.pem");
  }

  @Test
  void envNamesTheCaOfTheTlsFront() {
    Path data = dir.resolve("data");
    Path ca = LocalCertificates.caFile(LocalCloud.tlsDir(data));
    Map<String, String> env =
        LocalEnvironment.of(
            LocalEnvironment.expected(LocalCloudSettings.defaults(data)), 18443, Optional.of(ca));
    assertThat(env)
        .containsEntry("PROTOMOLT_GATEWAY", "127.0.0.1:18443")
        .containsEntry(GatewayTransport.CA_VARIABLE, ca.toString());
  }
}
