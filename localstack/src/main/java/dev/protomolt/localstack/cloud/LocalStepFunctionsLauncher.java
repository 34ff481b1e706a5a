package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.lambda.LambdaInvocationException;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LambdaInvoker;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import java.net.URI;

/**
 * Plugs the local Step Functions runtime into the local cloud: it runs on the cloud's
 * PostgreSQL, and its Lambda tasks invoke the functions registered with the cloud's Lambda runner.
 */
public final class LocalStepFunctionsLauncher implements StepFunctionsLauncher {

  @Override
  public StepFunctionsRuntime start(StepFunctionsEnvironment environment) {
    int port =
        LoopbackPort.claim(
            environment.requestedPort(),
            StepFunctionsEnvironment.COMPONENT,
            StepFunctionsEnvironment.PORT_SETTING);
    LocalStepFunctions runtime =
        LocalStepFunctions.start(
            port, environment.database(), invokerFor(environment.lambdas()), Clock.system());
    return new StepFunctionsRuntime() {
      @Override
      public URI endpoint() {
        return runtime.endpoint();
      }

      @Override
      public void close() {
        runtime.stop();
      }
    };
  }

  /**
   * Lambda tasks as Step Functions sees them: a function error fails the task with the function's
   * {@code errorType}; an error of the Lambda service itself (no such function, a payload that is
   * not JSON) is named {@code Lambda.<code>}, as Step Functions names Lambda's exceptions.
   */
  public static LambdaInvoker invokerFor(LocalLambdaRunner lambdas) {
    return (functionName, payloadJson) -> {
      LambdaResult result;
      try {
        result = lambdas.invoke(functionName, payloadJson);
      } catch (LambdaInvocationException e) {
        throw new LambdaInvoker.FunctionError("Lambda." + e.errorCode(), e.getMessage());
      }
      return switch (result) {
        case LambdaResult.Success success -> success.payload();
        case LambdaResult.Failure failure ->
            throw new LambdaInvoker.FunctionError(failure.errorType(), failure.errorMessage());
      };
    };
  }
}
