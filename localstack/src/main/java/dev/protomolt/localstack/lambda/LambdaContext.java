package dev.protomolt.localstack.lambda;

/**
 * What a local invocation knows about itself, named after the fields of Lambda's
 * {@code Context}.
 */
public record LambdaContext(String functionName, String awsRequestId, String invokedFunctionArn) {}
