package dev.protomolt.engine.hop;

/**
 * A node's filter condition could not be evaluated: dead-lettered.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#FILTER_FAILED}).
 */
public final class FilterFailure extends HopFailure {

  public FilterFailure(String message) {
    super(message, null);
  }

  public FilterFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
