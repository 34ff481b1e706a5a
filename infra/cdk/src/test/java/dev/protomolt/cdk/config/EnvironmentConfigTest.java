package dev.protomolt.cdk.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentConfigTest {

  private static final Path CONFIG = Path.of("config");

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"dev", "staging", "prod", "local"})
  void everyCommittedEnvironmentIsValid(String env) {
    EnvironmentConfig config = EnvironmentConfigLoader.load(CONFIG, env);
    assertThat(config.name()).isEqualTo(env);
    assertThat(config.prefix()).isEqualTo("protomolt-" + env);
    assertThat(EnvironmentConfigValidator.problems(config)).isEmpty();
  }

  @Test
  void everyProblemIsReportedWithItsFieldAndRule() throws IOException {
    String dev =
        Files.readString(CONFIG.resolve("dev.json"))
            .replace("\"account\": \"111111111111\"", "\"account\": \"12345\"")
            .replace("\"maxCapacityAcu\": 4", "\"maxCapacityAcu\": 0.25")
            .replace("\"logRetentionDays\": 14", "\"logRetentionDays\": 10")
            .replace("\"reconciler\": \"rate(6 hours)\"", "\"reconciler\": \"hourly\"")
            .replace("[\"protomolt-dev-alarms@example.com\"]", "[]")
            .replace("\"migrate\": 1536", "\"migrator\": 1536");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> {
              assertThat(e.problems())
                  .extracting(ConfigProblem::field)
                  .containsExactlyInAnyOrder(
                      "account",
                      "database.maxCapacityAcu",
                      "functions.logRetentionDays",
                      "schedules.reconciler",
                      "alarms.emailTargets",
                      "functions.memoryMbOverrides.migrator",
                      // The certificate is checked against the (now wrong) account as well.
                      "gateway.certificateArn");
              assertThat(e.getMessage())
                  .contains("account: must be a 12-digit AWS account id (got '12345')")
                  .contains("schedules.reconciler: must be rate(...) or cron(...)")
                  .contains("functions.memoryMbOverrides.migrator: names no function");
            });
  }

  @Test
  void theRetentionWindowIsWholeDaysWithinBoundsAndTheReconcilerChoiceIsExplicit()
      throws IOException {
    for (String[] bad :
        new String[][] {
          {
            "PT12H",
            "storage.retentionWindow: must be whole days in ISO-8601, such as P30D (got 'PT12H')"
          },
          {
            "30", "storage.retentionWindow: must be whole days in ISO-8601, such as P30D (got '30')"
          },
          {"P0D", "storage.retentionWindow: must be between P1D and P3650D"},
          {"P4000D", "storage.retentionWindow: must be between P1D and P3650D"}
        }) {
      String dev =
          Files.readString(CONFIG.resolve("dev.json"))
              .replace("\"retentionWindow\": \"P30D\"", "\"retentionWindow\": \"" + bad[0] + "\"");
      Path file = write("dev.json", dev);
      assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file)).hasMessageContaining(bad[1]);
    }
    String dev =
        Files.readString(CONFIG.resolve("dev.json")).replace(", \"reconcilerDeletes\": true", "");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining("storage.reconcilerDeletes: is required");
  }

  @Test
  void consoleOperatorAccountsAreGroupNamesWithoutRepeats() throws IOException {
    String dev =
        Files.readString(CONFIG.resolve("dev.json"))
            .replace(
                "\"operatorAccounts\": [\"acme\", \"beta\"]",
                "\"operatorAccounts\": [\"acme\", \"a b\", \"acme\"]");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining(
            "console.operatorAccounts[1]: must be an account id of 1-100 letters, digits, '.', '_'"
                + " or '-'")
        .hasMessageContaining("console.operatorAccounts[2]: must not repeat account 'acme'");
  }

  @Test
  void aMissingSectionIsNamedNotDefaulted() throws IOException {
    String dev = Files.readString(CONFIG.resolve("dev.json")).replace("\"readers\": 0,", "");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining("database.readers: is required");
  }

  @Test
  void aMisspeltSettingIsRejectedWithWhereItWas() throws IOException {
    String dev =
        Files.readString(CONFIG.resolve("dev.json")).replace("\"natGateways\"", "\"natGateway\"");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining("network.natGateway: is not a known setting");
  }

  @Test
  void theCertificateMustBelongToTheEnvironmentsRegionAndAccount() throws IOException {
    String dev =
        Files.readString(CONFIG.resolve("dev.json"))
            .replace("arn:aws:acm:eu-west-1:111111111111", "arn:aws:acm:us-east-1:111111111111");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining(
            "gateway.certificateArn: must be an ACM certificate ARN in this"
                + " environment's region and account");
  }

  @Test
  void anInternetFacingGatewayMustListTheRangesItAdmits() throws IOException {
    String open =
        Files.readString(CONFIG.resolve("dev.json"))
            .replace("\"internetFacing\": false,", "\"internetFacing\": true,");
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", open)))
        .hasMessageContaining(
            "gateway.allowedCidrs: an internet-facing gateway must list the IPv4 ranges (CIDR) it"
                + " admits");

    String badRange =
        open.replace(
            "\"internetFacing\": true,",
            "\"internetFacing\": true, \"allowedCidrs\": [\"203.0.113.0/24\", \"everyone\"],");
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", badRange)))
        .hasMessageContaining("gateway.allowedCidrs[1]: must be an IPv4 CIDR");

    String good =
        open.replace(
            "\"internetFacing\": true,",
            "\"internetFacing\": true, \"allowedCidrs\": [\"203.0.113.0/24\"],");
    assertThat(EnvironmentConfigLoader.parse(write("dev.json", good)).gateway().isInternetFacing())
        .isTrue();
  }

  @Test
  void gatewayPrincipalsMustNameKnownModulesRolesAndAccounts() throws IOException {
    String dev = Files.readString(CONFIG.resolve("dev.json"));
    String unknownModule = dev.replace("\"parser\": [\"arn", "\"parsr\": [\"arn");
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", unknownModule)))
        .hasMessageContaining("gateway.modulePrincipals.parsr: names no module service");
    String notARole =
        dev.replace(
            "arn:aws:iam::111111111111:role/protomolt-dev-module-parser",
            "arn:aws:iam::111111111111:user/someone");
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", notARole)))
        .hasMessageContaining(
            "gateway.modulePrincipals.parser: 'arn:aws:iam::111111111111:user/someone' must be an"
                + " IAM role ARN");
    String noAccounts =
        dev.replace("protomolt-dev-operators\": [\"*\"]", "protomolt-dev-operators\": []");
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", noAccounts)))
        .hasMessageContaining("must list the accounts it may act on");
  }

  @Test
  void accountSharesMustNameAccountsAndStayInsideTheGatewaysBounds() throws IOException {
    String dev = Files.readString(CONFIG.resolve("dev.json"));
    String shares = "\"accountShares\": { \"*\": { \"weight\": 1 } }";
    assertThat(dev).contains(shares);
    Map<String, String> refusals =
        Map.of(
            "\"accountShares\": { \"acct a\": { \"weight\": 2 } }",
            "gateway.accountShares.acct a: the account must be \"*\" or letters",
            "\"accountShares\": { \"acct-a\": {} }",
            "gateway.accountShares.acct-a: must set weight, recordsPerSecond or both",
            "\"accountShares\": { \"acct-a\": { \"weight\": 0 } }",
            "gateway.accountShares.acct-a.weight: must be between 1 and 1000, got 0",
            "\"accountShares\": { \"acct-a\": { \"recordsPerSecond\": 100001 } }",
            "gateway.accountShares.acct-a.recordsPerSecond: must be between 1 and 100000, got"
                + " 100001");
    for (var e : refusals.entrySet()) {
      String bad = dev.replace(shares, e.getKey());
      assertThatThrownBy(() -> EnvironmentConfigLoader.parse(write("dev.json", bad)))
          .as(e.getKey())
          .hasMessageContaining(e.getValue());
    }
    String good =
        dev.replace(
            shares,
            "\"accountShares\": { \"acct-a\": { \"weight\": 4, \"recordsPerSecond\": 50 } }");
    assertThat(
            EnvironmentConfigLoader.parse(write("dev.json", good))
                .gateway()
                .accountShares()
                .get("acct-a"))
        .isEqualTo(new EnvironmentConfig.AccountShare(4, 50));
  }

  @Test
  void zonesMustBelongToTheRegion() throws IOException {
    String dev =
        Files.readString(CONFIG.resolve("dev.json")).replace("\"eu-west-1b\"", "\"us-east-1b\"");
    Path file = write("dev.json", dev);
    assertThatThrownBy(() -> EnvironmentConfigLoader.parse(file))
        .hasMessageContaining("availabilityZones[1]: must be a zone of region eu-west-1");
  }

  @Test
  void theEnvironmentMustBeNamedAndKnown() throws IOException {
    assertThatThrownBy(() -> EnvironmentConfigLoader.load(CONFIG, null))
        .hasMessageContaining(
            "env: is required: run cdk with -c env=<name>, one of [dev, local, prod, staging]");
    assertThatThrownBy(() -> EnvironmentConfigLoader.load(CONFIG, "qa"))
        .hasMessageContaining("no file")
        .hasMessageContaining("known: [dev, local, prod, staging]");
    write("qa.json", Files.readString(CONFIG.resolve("dev.json")));
    assertThatThrownBy(() -> EnvironmentConfigLoader.load(dir, "qa"))
        .hasMessageContaining("name: must equal the file's environment 'qa' (got 'dev')");
  }

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }
}
