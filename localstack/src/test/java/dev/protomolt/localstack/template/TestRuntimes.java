package dev.protomolt.localstack.template;

import dev.protomolt.localstack.lambda.LambdaFunction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * Function and container runtimes for the deployer's tests: "echo" returns its event and records
 * it with the environment it ran with, "wait-forever" blocks until interrupted; the container
 * runtime runs the "Gateway" container and records its start and stop.
 */
final class TestRuntimes {

  record Invocation(String function, String event, Map<String, String> environment) {}

  final List<Invocation> invocations = new CopyOnWriteArrayList<>();
  final List<DeployedContainer> runningContainers = new CopyOnWriteArrayList<>();
  final java.util.concurrent.BlockingQueue<Invocation> kafkaBatches =
      new java.util.concurrent.LinkedBlockingQueue<>();
  final java.util.concurrent.BlockingQueue<Invocation> s3Events =
      new java.util.concurrent.LinkedBlockingQueue<>();

  /** When set, "echo" fails every custom resource request, as a failing migration does. */
  volatile boolean failCustomResources;

  final FunctionRuntime functions =
      new FunctionRuntime() {
        @Override
        public Optional<String> handlerOf(String handler, Map<String, String> environment) {
          String name =
              handler.startsWith("io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler")
                  ? environment.get("QUARKUS_LAMBDA_HANDLER")
                  : handler;
          return List.of("echo", "wait-forever").contains(name)
              ? Optional.of(name)
              : Optional.empty();
        }

        @Override
        public LambdaFunction start(DeployedFunction function) {
          if (function.handler().equals("wait-forever")) {
            return (event, context) -> {
              new CountDownLatch(1).await();
              return "null";
            };
          }
          return (event, context) -> {
            Invocation call =
                new Invocation(function.functionName(), event, function.environment());
            if (failCustomResources && event.contains("\"RequestType\"")) {
              throw new IllegalStateException("the schema could not be migrated");
            }
            invocations.add(call);
            if (event.contains("aws:kafka")) {
              kafkaBatches.add(call);
            } else if (event.contains("aws:s3")) {
              s3Events.add(call);
            }
            return event;
          };
        }
      };

  final ContainerRuntime containers =
      new ContainerRuntime() {
        @Override
        public boolean runs(String family, String containerName) {
          return containerName.equals("Gateway");
        }

        @Override
        public AutoCloseable start(DeployedContainer container) {
          runningContainers.add(container);
          return () -> runningContainers.remove(container);
        }
      };
}
