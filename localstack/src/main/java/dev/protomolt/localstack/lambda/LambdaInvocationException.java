package dev.protomolt.localstack.lambda;

/**
 * The invocation itself was refused before any function ran, as Lambda's Invoke API refuses it.
 * {@link #errorCode()} is the AWS error code ({@code ResourceNotFoundException},
 * {@code InvalidRequestContentException}).
 */
public final class LambdaInvocationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public static final String RESOURCE_NOT_FOUND = "ResourceNotFoundException";
  public static final String INVALID_REQUEST_CONTENT = "InvalidRequestContentException";

  private final String errorCode;

  public LambdaInvocationException(String errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = errorCode;
  }

  public String errorCode() {
    return errorCode;
  }
}
