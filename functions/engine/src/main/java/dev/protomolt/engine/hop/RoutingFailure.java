package dev.protomolt.engine.hop;

/**
 * Routing out of a node failed (an edge condition could not be evaluated): dead-lettered.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#ROUTING_FAILED}).
 */
public final class RoutingFailure extends HopFailure {

  public RoutingFailure(String message) {
    super(message, null);
  }

  public RoutingFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
