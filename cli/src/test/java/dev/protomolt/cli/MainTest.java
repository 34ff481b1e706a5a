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
  void theCommandListsEveryCommand() {
    CommandRun help = CommandRun.of("--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("up", "env", "graph", "ingest", "doc", "search", "demo");
    assertThat(CommandRun.of("graph", "--help").out())
        .contains("apply", "validate", "list", "show", "asl", "activate", "deactivate", "delete");
  }

  @Test
  void envWithoutARunningPlatformPrintsTheDefaultEndpointsForTheDataFolder() {
    CommandRun env =
        LocalPorts.unsetDuring(() -> CommandRun.of("env", "--data", "/tmp/some where"));
    assertThat(env.status()).as("%s", env).isZero();
    assertThat(env.out())
        .contains("export AWS_ENDPOINT_URL_S3=http://127.0.0.1:18110;")
        .contains("export AWS_ENDPOINT_URL_SFN=http://127.0.0.1:18150;")
        .contains("export AWS_ENDPOINT_URL_LAMBDA=http://127.0.0.1:18160;")
        .contains("export PROTOMOLT_GATEWAY=127.0.0.1:18100;")
        .contains("export PROTOMOLT_DATA='/tmp/some where';");
    assertThat(CommandRun.of("env", "--gateway-port", "0").err())
        .contains("--gateway-port: must be between 1 and 65535, got 0");
  }

  @Test
  void shellQuotingSurvivesQuotesInValues() {
    assertThat(LocalEnvironment.shellQuoted("it's")).isEqualTo("'it'\\''s'");
    assertThat(LocalEnvironment.shellQuoted("")).isEqualTo("''");
    assertThat(LocalEnvironment.shellQuoted("http://127.0.0.1:1")).isEqualTo("http://127.0.0.1:1");
  }

  @Test
  void upRefusesAnAccountWithoutDatasourcesNamingTheOption() {
    CommandRun up = CommandRun.of("up", "--account", "acme");
    assertThat(up.status()).isEqualTo(2);
    assertThat(up.err()).contains("--account: must be ACCOUNT:DATASOURCE");
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
