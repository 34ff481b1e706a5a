package dev.protomolt.localstack.template;

/**
 * How the local cloud runs an ECS task's container in-process (the cli runs the gateway's main
 * from the container's environment). Closing the returned handle stops it.
 */
public interface ContainerRuntime {

  /** Whether this runtime can run {@code containerName} of task family {@code family}. */
  boolean runs(String family, String containerName);

  AutoCloseable start(DeployedContainer container);

  /**
   * The loopback port where the started {@code container} serves what the task definition maps to
   * {@code containerPort}: the same port unless this runtime moved it (decision 1507).
   */
  default int hostPort(DeployedContainer container, int containerPort) {
    return containerPort;
  }
}
