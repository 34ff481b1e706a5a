package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt up}: the local cloud, the engine functions, the gateway and the sample modules,
 * in the foreground until Ctrl-C. Prints every endpoint as {@code KEY=VALUE} lines.
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description = "Start the local cloud, the gateway and the sample modules; run until Ctrl-C.")
final class UpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = ".protomolt",
      description =
          "Where every object, row, record and the index live (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(
      names = "--gateway-port",
      paramLabel = "PORT",
      defaultValue = "" + GatewayConfig.DEFAULT_PORT,
      description = "The gateway's gRPC port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int gatewayPort;

  @Option(
      names = "--account",
      paramLabel = "A:D[,D...]",
      description =
          "Provision account A with datasources D (repeatable). Kept in the data folder,"
              + " so a later `up` on it needs no flag.")
  List<String> accounts = new ArrayList<>();

  @Option(
      names = "--rtbf-datasource",
      paramLabel = "D",
      description =
          "Declare every upload of datasource D (one of an --account's) right-to-be-forgotten,"
              + " whatever its metadata says (repeatable).")
  List<String> forgettable = new ArrayList<>();

  @Override
  public Integer call() throws InterruptedException {
    if (gatewayPort < 0 || gatewayPort > 65535) {
      throw new ParameterException(
          spec.commandLine(), "--gateway-port: must be between 0 and 65535, got " + gatewayPort);
    }
    Map<String, List<String>> provision = new LinkedHashMap<>();
    for (String account : accounts) {
      int colon = account.indexOf(':');
      List<String> datasources =
          colon < 0 ? List.of() : List.of(account.substring(colon + 1).split(","));
      String accountId = colon < 0 ? account : account.substring(0, colon);
      if (datasources.isEmpty()
          || datasources.stream().anyMatch(d -> d.isBlank() || d.contains("/"))) {
        throw new ParameterException(
            spec.commandLine(),
            "--account: must be ACCOUNT:DATASOURCE[,"
                + "DATASOURCE...] with non-blank datasources without '/', got '"
                + account
                + "'");
      }
      try {
        LocalPlatform.requireAccountId(accountId);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--account: " + e.getMessage());
      }
      provision.computeIfAbsent(accountId, k -> new ArrayList<>()).addAll(datasources);
    }
    for (String d : forgettable) {
      if (provision.values().stream().noneMatch(ds -> ds.contains(d))) {
        throw new ParameterException(
            spec.commandLine(),
            "--rtbf-datasource: '" + d + "' must be a datasource of an --account, got none");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    LocalCloudSettings settings = LocalCloudSettings.fromSystemProperties().withDataDir(data);
    LocalPlatform platform = PlatformStart.start(settings, gatewayPort);
    try {
      provision.forEach(
          (accountId, datasources) ->
              platform.provisionAccount(
                  accountId,
                  datasources,
                  datasources.stream()
                      .filter(forgettable::contains)
                      .collect(java.util.stream.Collectors.toSet())));
    } catch (IllegalArgumentException e) {
      platform.close();
      throw CommandFailure.refused("--account: " + e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  platform.close();
                  stopped.countDown();
                },
                "protomolt-up-shutdown"));
    platform.environment().forEach((key, value) -> out.println(key + "=" + value));
    provision.forEach(
        (accountId, datasources) ->
            out.println(
                "# account "
                    + accountId
                    + ": upload to s3://"
                    + LocalPlatform.INTAKE_BUCKET
                    + "/"
                    + accountId
                    + "/<datasource>/ for "
                    + datasources));
    out.println("# console: " + platform.consoleUrl());
    out.println(
        "# protomolt is up; Ctrl-C stops it. Data: "
            + data.toAbsolutePath()
            + ". In another shell: eval $(protomolt env --data "
            + data
            + (platform.gatewayPort() == GatewayConfig.DEFAULT_PORT
                ? ""
                : " --gateway-port " + platform.gatewayPort())
            + ")");
    out.flush();
    stopped.await();
    return 0;
  }
}
