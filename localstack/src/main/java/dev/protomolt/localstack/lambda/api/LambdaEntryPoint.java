package dev.protomolt.localstack.lambda.api;

import dev.protomolt.localstack.lambda.LambdaResult;

/**
 * How the Lambda API runs a function: the payload in, a response or a function error out. The
 * deployer passes {@code payload -> cloud.lambdas().invoke(name, payload)}, so an Invoke through
 * the API runs the very handler the event sources and Step Functions run.
 */
@FunctionalInterface
public interface LambdaEntryPoint {

  LambdaResult invoke(String payload);
}
