package dev.protomolt.cli;

import dev.protomolt.core.metrics.EmbeddedMetricFormatSink;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.gateway.GatewayMain;
import dev.protomolt.localstack.template.ContainerRuntime;
import dev.protomolt.localstack.template.DeployedContainer;
import dev.protomolt.names.PlatformVariable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The gateway's ECS task runs in this JVM: {@link GatewayMain} configured from the container's
 * environment in the task definition, as the image's entry point configures it in ECS. Two things
 * differ, each because one JVM is not a fleet of containers: the ports the task listens on may be
 * given here (gRPC; the admin port then moves to a free one) (the task definition's fixed port would collide between runs on one machine; 0 picks
 * a free one), and the metrics go to the sink given here, as CloudWatch collects the task's EMF
 * lines.
 */
final class GatewayTaskRuntime implements ContainerRuntime {

  /** The container name infra/cdk's ModuleGateway gives the gateway. */
  static final String CONTAINER = "Gateway";

  private final OptionalInt port;
  private final MetricsSink metrics;
  private volatile GatewayMain started;

  /** The task definition's own port, metrics as EMF lines on stdout. */
  GatewayTaskRuntime() {
    this(OptionalInt.empty(), null);
  }

  /**
   * @param port the port the gateway listens on instead of the task definition's (0: a free one);
   *     empty keeps the task definition's
   * @param metrics where the gateway's metrics go; null for EMF lines on stdout
   */
  GatewayTaskRuntime(OptionalInt port, MetricsSink metrics) {
    this.port = port;
    this.metrics = metrics;
  }

  @Override
  public boolean runs(String family, String containerName) {
    return CONTAINER.equals(containerName);
  }

  /** The container's environment with the one local override applied. */
  Map<String, String> environmentOf(DeployedContainer container) {
    Map<String, String> env = new HashMap<>(container.environment());
    port.ifPresent(
        p -> {
          env.put(PlatformVariable.GATEWAY_PORT.key(), Integer.toString(p));
          // The admin port (health, diagnostics) is the task's second listener: fixed in the task
          // definition for the same reason, so it moves to a free one with the gRPC port.
          if (env.containsKey(PlatformVariable.ADMIN_PORT.key())) {
            env.put(PlatformVariable.ADMIN_PORT.key(), "0");
          }
        });
    return env;
  }

  @Override
  public AutoCloseable start(DeployedContainer container) {
    try {
      GatewayConfig config = GatewayConfig.from(environmentOf(container));
      GatewayMain gateway =
          GatewayMain.start(
              config,
              List.of(),
              metrics != null
                  ? metrics
                  : EmbeddedMetricFormatSink.stdout(config.environmentName()));
      this.started = gateway;
      return gateway;
    } catch (IOException e) {
      throw new UncheckedIOException(
          container.logicalId() + ": the gateway did not start: " + e.getMessage(), e);
    }
  }

  /**
   * Where the started gateway listens: the load balancer's TLS front forwards there, not to the
   * task definition's port when this runtime moved it.
   */
  @Override
  public int hostPort(DeployedContainer container, int containerPort) {
    return gateway().map(GatewayMain::port).orElse(containerPort);
  }

  /** The gateway this runtime started, once it has. */
  Optional<GatewayMain> gateway() {
    return Optional.ofNullable(started);
  }
}
