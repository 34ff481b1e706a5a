package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.gateway.GatewayMain;
import dev.protomolt.localstack.template.ContainerRuntime;
import dev.protomolt.localstack.template.DeployedContainer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The gateway's ECS task runs in this JVM: {@link GatewayMain} configured from the container's
 * environment in the task definition, as the image's entry point configures it in ECS.
 */
final class GatewayTaskRuntime implements ContainerRuntime {

  /** The container name infra/cdk's ModuleGateway gives the gateway. */
  static final String CONTAINER = "Gateway";

  @Override
  public boolean runs(String family, String containerName) {
    return CONTAINER.equals(containerName);
  }

  @Override
  public AutoCloseable start(DeployedContainer container) {
    try {
      return GatewayMain.start(GatewayConfig.from(container.environment()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          container.logicalId() + ": the gateway did not start: " + e.getMessage(), e);
    }
  }
}
