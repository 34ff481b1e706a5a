package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line's parsing and refusals; starting the platform is LocalPlatformEndToEndTest's. */
class MainTest {

  @Test
  void upRefusesAnOutOfRangeGatewayPortNamingTheOption() {
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    int status = cli.execute("up", "--gateway-port", "70000");
    assertThat(status).isEqualTo(2);
    assertThat(err.toString()).contains("--gateway-port: must be between 0 and 65535, got 70000");
  }

  @Test
  void upRefusesANonNumericPortNamingTheOption() {
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("up", "--gateway-port", "lots")).isEqualTo(2);
    assertThat(err.toString()).contains("--gateway-port").contains("lots");
  }

  @Test
  void theCommandListsUp() {
    StringWriter out = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("--help")).isEqualTo(0);
    assertThat(out.toString()).contains("up").contains("Start the local cloud");
  }
}
