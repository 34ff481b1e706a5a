package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt env}: the local platform's endpoints, buckets, region and key pair as shell
 * lines, computed from the same settings {@code up} uses, so it works whether or not {@code up} is
 * running: {@code eval $(protomolt env)} points the AWS CLI and SDKs at the local cloud.
 */
@Command(
    name = "env",
    mixinStandardHelpOptions = true,
    description =
        "Print the local cloud's endpoints and credentials as `export KEY=VALUE;` lines"
            + " (eval $(protomolt env)).")
final class EnvCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Option(
      names = "--gateway-port",
      paramLabel = "PORT",
      defaultValue = "" + GatewayConfig.DEFAULT_PORT,
      description = "The gateway port `up` was given (default: ${DEFAULT-VALUE}).")
  int gatewayPort;

  @Option(names = "--plain", description = "Bare KEY=VALUE lines (an env file), without `export`.")
  boolean plain;

  @Override
  public Integer call() {
    if (gatewayPort < 1 || gatewayPort > 65535) {
      throw new ParameterException(
          spec.commandLine(), "--gateway-port: must be between 1 and 65535, got " + gatewayPort);
    }
    Map<String, String> env;
    try {
      env = LocalEnvironment.of(LocalEnvironment.expected(data.settings()), gatewayPort);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    env.forEach(
        (key, value) ->
            out.println(plain ? key + "=" + value : LocalEnvironment.exportLine(key, value)));
    out.flush();
    return 0;
  }
}
