package dev.protomolt.localstack.template;

import dev.protomolt.localstack.lambda.LambdaFunction;
import java.util.Map;
import java.util.Optional;

/**
 * How the local cloud runs a function's code in-process. The local cloud knows nothing of the
 * handlers themselves; whoever deploys a template (the cli, with the Lambda zip's wiring) does.
 */
public interface FunctionRuntime {

  /**
   * The in-process handler a function with {@code handler} (the template's {@code Handler}) and
   * {@code environment} runs; empty when this runtime has no such handler, which fails the
   * deployment before anything starts.
   */
  Optional<String> handlerOf(String handler, Map<String, String> environment);

  /** Builds the running function; called only once the whole template has been checked. */
  LambdaFunction start(DeployedFunction function);
}
