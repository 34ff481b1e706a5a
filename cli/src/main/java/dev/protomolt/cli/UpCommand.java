package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
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
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Start the local cloud, the gateway and the sample modules; run until Ctrl-C.")
final class UpCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--data", paramLabel = "DIR", defaultValue = ".protomolt",
      description = "Where every object, row, record and the index live (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--gateway-port", paramLabel = "PORT", defaultValue = "" + GatewayConfig.DEFAULT_PORT,
      description = "The gateway's gRPC port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int gatewayPort;

  @Override
  public Integer call() throws InterruptedException {
    if (gatewayPort < 0 || gatewayPort > 65535) {
      throw new ParameterException(spec.commandLine(),
          "--gateway-port: must be between 0 and 65535, got " + gatewayPort);
    }
    PrintWriter out = spec.commandLine().getOut();
    LocalCloudSettings settings = LocalCloudSettings.fromSystemProperties().withDataDir(data);
    LocalPlatform platform = LocalPlatform.start(settings, gatewayPort);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      platform.close();
      stopped.countDown();
    }, "protomolt-up-shutdown"));
    platform.environment().forEach((key, value) -> out.println(key + "=" + value));
    out.println("# protomolt is up; Ctrl-C stops it. Data: " + data.toAbsolutePath());
    out.flush();
    stopped.await();
    return 0;
  }
}
