package dev.protomolt.lambda;

/**
 * The event a function was invoked with is not what it accepts: not JSON, a field missing or of
 * the wrong kind, a record that does not decode. The message names the function, the field (as a
 * path into the event) and the rule it broke. Lambda reports it as errorType
 * {@code dev.protomolt.lambda.InvalidEventException}; nothing was consumed or changed.
 */
public final class InvalidEventException extends RuntimeException {

  public InvalidEventException(String function, String field, String rule) {
    super(function + ": " + field + " " + rule);
  }

  public InvalidEventException(String function, String field, String rule, Throwable cause) {
    super(function + ": " + field + " " + rule, cause);
  }
}
