package dev.protomolt.localstack.lambda;

/**
 * A Lambda function as the local runner sees it: the event AWS would deliver, as JSON text, in;
 * the response payload, as JSON text, out. The project's real handlers are adapted to this shape
 * (parse the text with the same event classes AWS uses, serialise the reply), so the runner never
 * needs to know their types.
 *
 * <p>Throwing is a function error, reported the way Lambda's Java runtime reports it:
 * {@code errorType} is the exception's class name and {@code errorMessage} its message, so a
 * Step Functions {@code Retry} or {@code Catch} sees the same error name locally and in AWS.
 */
@FunctionalInterface
public interface LambdaFunction {

  /**
   * Handles one invocation.
   *
   * @param event the JSON payload (a Step Functions task input, an {@code S3Event}, a
   *     {@code KafkaEvent})
   * @return the JSON response payload; {@code null} is returned to the caller as {@code null}
   */
  String handle(String event, LambdaContext context) throws Exception;
}
