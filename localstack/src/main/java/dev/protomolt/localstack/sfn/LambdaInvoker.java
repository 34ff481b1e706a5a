package dev.protomolt.localstack.sfn;

/**
 * How the local Step Functions runtime calls a Lambda function. The local Lambda runner implements
 * it; tests implement it with plain functions.
 */
@FunctionalInterface
public interface LambdaInvoker {

  /**
   * Invokes {@code functionName} synchronously with {@code payloadJson} and returns the function's
   * JSON response.
   *
   * @param functionName the {@code FunctionName} from the task's Parameters, as given: a name, a
   *     partial ARN or a full function ARN (see {@link #functionNameOf})
   * @throws FunctionError when the function reports an error, with Lambda's errorType and
   *     errorMessage; the Task then fails with errorType as its error name. An unknown function is
   *     {@code Lambda.ResourceNotFoundException}.
   */
  String invoke(String functionName, String payloadJson) throws FunctionError;

  /** The bare function name of a name, {@code name:qualifier} or function ARN. */
  static String functionNameOf(String functionName) {
    String value = functionName;
    int marker = value.indexOf(":function:");
    if (marker >= 0) {
      value = value.substring(marker + ":function:".length());
    }
    int colon = value.indexOf(':');
    return colon >= 0 ? value.substring(0, colon) : value;
  }

  /** A function error as Lambda reports it: {@code errorType} and {@code errorMessage}. */
  final class FunctionError extends Exception {
    private final String errorType;
    private final String errorMessage;

    public FunctionError(String errorType, String errorMessage) {
      super(errorType + ": " + errorMessage);
      this.errorType = errorType;
      this.errorMessage = errorMessage;
    }

    public String errorType() {
      return errorType;
    }

    public String errorMessage() {
      return errorMessage;
    }
  }
}
