package dev.protomolt.cli;

import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.lambda.wiring.ContainerClients;
import dev.protomolt.lambda.wiring.FunctionEnvironment;
import dev.protomolt.lambda.wiring.FunctionWiring;
import dev.protomolt.localstack.lambda.ContainerPool;
import dev.protomolt.localstack.lambda.LambdaContext;
import dev.protomolt.localstack.lambda.LambdaFunction;
import dev.protomolt.localstack.template.DeployedFunction;
import dev.protomolt.localstack.template.FunctionRuntime;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The Lambda zip's functions run in this JVM: a function whose template {@code Handler} is the
 * Quarkus stream handler runs the named handler {@code QUARKUS_LAMBDA_HANDLER} picks, built by the
 * production {@link FunctionWiring} from the function's own environment, as the zip builds it in
 * AWS. What the functions emit as metrics goes to the sink given here, as CloudWatch collects a
 * deployed function's EMF lines.
 */
final class ZipFunctionRuntime implements FunctionRuntime {

  /** The one Java handler every function of the zip names in the template. */
  static final String QUARKUS_HANDLER =
      "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

  /**
   * Containers one function runs at once. Eight per function, two ledger connections each, keeps
   * the whole stack's pools within the local PostgreSQL's connection limit (LocalPostgres) while
   * letting a burst of hops run side by side instead of queueing on one container's pool.
   */
  static final int MAX_CONTAINERS_PER_FUNCTION = 8;

  private final MetricsSink metrics;

  /** Metrics as EMF lines on stdout, as in AWS. */
  ZipFunctionRuntime() {
    this(null);
  }

  /**
   * @param metrics where every function's metrics go; null for EMF lines on stdout
   */
  ZipFunctionRuntime(MetricsSink metrics) {
    this.metrics = metrics;
  }

  @Override
  public Optional<String> handlerOf(String handler, Map<String, String> environment) {
    String named = environment.get("QUARKUS_LAMBDA_HANDLER");
    if (!QUARKUS_HANDLER.equals(handler) || named == null || !NamedHandlers.NAMES.contains(named)) {
      return Optional.empty();
    }
    return Optional.of(named);
  }

  /**
   * Each concurrent invocation gets its own container, as in Lambda: the clients a container holds
   * (a ledger pool of two connections among them) are sized for one invocation at a time.
   */
  @Override
  public LambdaFunction start(DeployedFunction function) {
    return new ContainerPool(() -> container(function), MAX_CONTAINERS_PER_FUNCTION);
  }

  private ContainerPool.Container container(DeployedFunction function) {
    ContainerClients clients =
        new ContainerClients(new FunctionEnvironment(function.environment()), Clock.systemUTC());
    EventHandler handler = new FunctionWiring(clients, metrics).handler(function.handler());
    return new ContainerPool.Container() {
      @Override
      public String handle(String event, LambdaContext context) {
        return handler.handleText(event);
      }

      @Override
      public void close() {
        clients.close();
      }
    };
  }
}
