package dev.protomolt.cli;

import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.lambda.wiring.ContainerClients;
import dev.protomolt.lambda.wiring.FunctionEnvironment;
import dev.protomolt.lambda.wiring.FunctionWiring;
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

  @Override
  public LambdaFunction start(DeployedFunction function) {
    ContainerClients clients =
        new ContainerClients(new FunctionEnvironment(function.environment()), Clock.systemUTC());
    EventHandler handler = new FunctionWiring(clients, metrics).handler(function.handler());
    return (event, context) -> handler.handleText(event);
  }
}
