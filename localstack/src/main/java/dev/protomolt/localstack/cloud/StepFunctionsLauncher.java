package dev.protomolt.localstack.cloud;

/**
 * Starts the local Step Functions runtime once PostgreSQL (its durable execution state) and the
 * Lambda runner (its task targets) are up. Expected use, once the runtime exists:
 *
 * <pre>{@code
 * LocalCloud.start(settings, env -> LocalStepFunctions.start(env));
 * }</pre>
 *
 * where the runtime claims {@code env.requestedPort()} with
 * {@link LoopbackPort#claim(int, String, String)} and {@link StepFunctionsEnvironment#PORT_SETTING}
 * so a clash reads like every other component's.
 */
@FunctionalInterface
public interface StepFunctionsLauncher {

  StepFunctionsRuntime start(StepFunctionsEnvironment environment) throws Exception;
}
